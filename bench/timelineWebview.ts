// Benchmark of the timeline webview (issue 11): the production bundle in headless Chromium, inside the
// panel's HTML shell and CSP, fed by this process as the host would. Measured: (1) a 24 h recording
// (86,400 relists, 110 pods) from the `session` message to the first painted frame; (2) live updates at
// 1 Hz on top of it — the renderer main thread's time per update, read from a Chromium trace (the
// message handler, the animation frame that redraws, and the frame's layout, paint and canvas commit;
// see rendererFrames.ts), with the whole day in view and with the last 15 minutes in view; (3) the
// production bundle's size.
// The recording is handed to the page before the clock starts: VS Code's postMessage copy is not ours.
// PLEG_BENCH_CPU_PROFILE=DIR also writes a Chromium CPU profile of the open and of each run of updates
// there (open-24h.cpuprofile, …; load them in Chrome's DevTools), from a bundle with readable names.
// PLEG_BENCH_TRACE=DIR keeps the traces of the live updates there (live-15min.json, live-day.json; open them
// in Perfetto); PLEG_BENCH_TRACE_CATEGORIES replaces the traced categories (add disabled-by-default-skia
// to see every canvas draw the commit rasterizes). PLEG_BENCH_DPR=2 runs the page at that pixel ratio.
// Called by bench/run.ts; alone: npm run bench timeline

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import type * as vscode from 'vscode';
import { englishText } from '../src/core/tree/localize';
import { DEFAULT_WHAT_IF } from '../src/core/timeline/whatIf/whatIfTimeline';
import { sessionHeadline } from '../src/host/timeline/timelineHeadline';
import { webviewStrings } from '../src/host/timeline/timelineStrings';
import { webviewHtml } from '../src/host/timeline/webviewHtml';
import { PROTOCOL_VERSION, type HostToWebview } from '../src/shared/timeline/panelProtocol';
import { SessionRecorder } from '../test/support/timelineSession';
import { updateCosts } from './rendererFrames';

const ROOT = resolve(__dirname, '..');
const OPEN_GOAL_MS = 500;
const FRAME_GOAL_MS = 16;
const BUNDLE_GOAL_BYTES = 300 * 1024;
const DAY_S = 86_400;
const UPDATES = 15;

const INIT_SCRIPT = `
  window.__sent = [];
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent.push(m), getState: () => undefined, setState: () => undefined });
  // Times every animation-frame callback: the redraw a live update schedules runs in one.
  window.__rafMs = [];
  const raf = window.requestAnimationFrame.bind(window);
  // uPlot draws in a microtask queued by setData: the time is taken in a microtask queued after it.
  window.requestAnimationFrame = (cb) => raf((t) => { const t0 = performance.now(); cb(t); queueMicrotask(() => queueMicrotask(() => window.__rafMs.push(performance.now() - t0))); });
`;

interface PageGlobals {
  __sent: Array<{ type: string }>;
  __violations: string[];
  __rafMs: number[];
  __data: unknown;
  dispatchEvent(event: unknown): boolean;
  requestAnimationFrame(cb: () => void): number;
}
declare const MessageEvent: new (type: string, init: { data: unknown }) => unknown;
declare const performance: { now(): number };

/** Starts a CPU profile of the page when PLEG_BENCH_CPU_PROFILE names a folder; the returned stop writes it. */
async function profileIf(page: Page, name: string): Promise<() => Promise<void>> {
  const folder = process.env['PLEG_BENCH_CPU_PROFILE'];
  if (folder === undefined || folder === '') return () => Promise.resolve();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${name}.cpuprofile`), JSON.stringify(profile));
    await cdp.detach();
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const verdict = (value: number, goal: number): string => (value <= goal ? 'ok' : 'OVER');

export async function benchTimelineWebview(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'timeline-bench-'));
  const lines: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      const html = webviewHtml({ cspSource: origin } as vscode.Webview, {
        title: 'bench',
        scriptUri: { toString: () => `${origin}/timeline.js` } as vscode.Uri,
        styleUris: [{ toString: () => `${origin}/timeline.css` } as vscode.Uri],
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const type = { '/timeline.js': 'text/javascript', '/timeline.css': 'text/css' }[path];
    if (type === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': type }).end(readFileSync(join(dir, path.slice(1))));
  });
  let origin = '';
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    // The same options esbuild.mjs uses for the production webview bundle.
    // Profiling keeps the names (minifyIdentifiers off), so its size line is not the shipped size.
    const profiling = (process.env['PLEG_BENCH_CPU_PROFILE'] ?? '') !== '';
    await esbuild.build({ absWorkingDir: ROOT, entryPoints: ['webview/timeline/main.ts'], outfile: join(dir, 'timeline.js'), bundle: true, minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: !profiling, legalComments: 'none', platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'silent' });
    const bytes = statSync(join(dir, 'timeline.js')).size;
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // A day of 1 s relists, one runtime freeze in it; then exactly 86,400 relists (the freeze's hung
    // relists make the day a little longer than 86,400 s).
    const recorder = new SessionRecorder({ durationS: 2 * DAY_S, pods: 110, freeze: { atS: 40_000, forS: 400 } });
    while (recorder.session.relists.length < DAY_S) recorder.advance(recorder.session.durationMs + 60_000);
    const session = recorder.session;
    session.relists.length = DAY_S;
    // PLEG_BENCH_DPR=2 measures a HiDPI screen: four times the pixels, and 1 px lines are 2 device px wide.
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: Number(process.env['PLEG_BENCH_DPR'] ?? '1') || 1 });
    await page.addInitScript(INIT_SCRIPT);
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__sent.some((m) => m.type === 'ready'));
    const init: HostToWebview = { type: 'init', protocolVersion: PROTOCOL_VERSION, strings: webviewStrings(englishText), params: DEFAULT_WHAT_IF, target: { context: 'bench', node: session.node }, recording: null };
    // Opened as a replay: the whole day in view, as "Open PLEG Timeline Recording…" shows it.
    const message: HostToWebview = { type: 'session', mode: 'replay', label: 'bench', session, headline: sessionHeadline(session, false, englishText), prediction: 'bench', feed: 'ended' };
    // As text: playwright's own serialization of a 30 MB object takes minutes.
    await page.evaluate(([i, m]) => {
      const g = globalThis as unknown as PageGlobals;
      g.dispatchEvent(new MessageEvent('message', { data: i }));
      g.__data = JSON.parse(m) as unknown;
    }, [init, JSON.stringify(message)] as const);

    const stopOpenProfile = await profileIf(page, 'open-24h');
    const openMs = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          const g = globalThis as unknown as PageGlobals;
          const t0 = performance.now();
          g.dispatchEvent(new MessageEvent('message', { data: g.__data }));
          // The frame after the one the charts were drawn for has been presented.
          g.requestAnimationFrame(() => g.requestAnimationFrame(() => done(performance.now() - t0)));
        }),
    );
    await stopOpenProfile();
    lines.push(`24 h recording (${session.relists.length.toLocaleString('en')} relists, ${session.kubelet.length.toLocaleString('en')} scrapes, ${session.podEvents.length.toLocaleString('en')} pod events): message → first paint ${openMs.toFixed(0)} ms (goal ≤ ${OPEN_GOAL_MS} ms, ${verdict(openMs, OPEN_GOAL_MS)})`);

    // Then the same day as a live session (not timed), growing by one relist a second.
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      const m = g.__data as { mode: string; feed: string };
      g.dispatchEvent(new MessageEvent('message', { data: { ...m, mode: 'live', feed: 'running' } }));
    });
    const pickRange = (value: string): Promise<void> =>
      page.evaluate((v) => {
        const select = (globalThis as unknown as { document: { querySelector(s: string): { value: string; dispatchEvent(e: unknown): boolean } } }).document.querySelector('#range');
        select.value = v;
        select.dispatchEvent(new (globalThis as unknown as { Event: new (t: string) => unknown }).Event('change'));
      }, value);
    const live = async (label: string, profileName: string): Promise<void> => {
      const stopProfile = await profileIf(page, profileName);
      // Not with the CPU profiler on: its sampling would be counted as the page's main-thread time.
      const tracing = process.env['PLEG_BENCH_CPU_PROFILE'] === undefined || process.env['PLEG_BENCH_CPU_PROFILE'] === '';
      if (tracing) await browser.startTracing(page, { categories: (process.env['PLEG_BENCH_TRACE_CATEGORIES'] ?? 'toplevel,devtools.timeline,blink.user_timing').split(',') });
      const scripts: number[] = [];
      for (let i = 0; i < UPDATES; i++) {
        const delta = recorder.advance(recorder.session.durationMs + 1000);
        const ms = await page.evaluate(
          ([d, n]) =>
            new Promise<number>((done) => {
              const g = globalThis as unknown as PageGlobals & { performance: { mark(name: string): void } };
              g.__rafMs = [];
              g.performance.mark(`update-${n}-start`);
              const t0 = performance.now();
              // A prediction that changes every second, as the live feed's does.
              g.dispatchEvent(new MessageEvent('message', { data: { type: 'sessionDelta', delta: d, prediction: `healthy: the last relist took ${n % 40}ms, budget 2m59.${n}s` } }));
              const handler = performance.now() - t0;
              // The frame after the redraw's frame: the redraw's commit is done by then.
              g.requestAnimationFrame(() =>
                g.requestAnimationFrame(() => {
                  g.performance.mark(`update-${n}-end`);
                  done(handler + g.__rafMs.reduce((a, b) => a + b, 0));
                }),
              );
            }),
          [delta, i] as const,
        );
        scripts.push(ms);
        await page.waitForTimeout(1000);
      }
      await stopProfile();
      const scriptPart = `script alone (handler + animation frame) median ${median(scripts).toFixed(1)} ms, worst ${Math.max(...scripts).toFixed(1)} ms`;
      if (!tracing) {
        lines.push(`live update at 1 Hz, ${label}: ${scriptPart} (profiling: frame times not traced)`);
        return;
      }
      const trace = await browser.stopTracing();
      const traceDir = process.env['PLEG_BENCH_TRACE'];
      if (traceDir !== undefined && traceDir !== '') {
        mkdirSync(traceDir, { recursive: true });
        writeFileSync(join(traceDir, `${profileName}.json`), trace);
      }
      const costs = updateCosts(trace);
      const cpu = costs.map((c) => c.cpuMs);
      const busy = costs.map((c) => c.busyMs);
      const worst = Math.max(...cpu);
      lines.push(
        `live update at 1 Hz, ${label}: the renderer main thread's CPU time per update (script, layout, paint, canvas commit, GC; traced) median ${median(cpu).toFixed(1)} ms, worst ${worst.toFixed(1)} ms (goal < ${FRAME_GOAL_MS} ms, ${verdict(worst, FRAME_GOAL_MS - 1e-9)}); wall time, waits for a core included: median ${median(busy).toFixed(1)} ms, worst ${Math.max(...busy).toFixed(1)} ms, longest task ${Math.max(...costs.map((c) => c.longestTaskMs)).toFixed(1)} ms; ${scriptPart}`,
      );
    };
    await pickRange('900');
    await live('last 15 minutes in view (the live default)', 'live-15min');
    await pickRange('all');
    await live('whole day in view', 'live-day');
    const violations = await page.evaluate(() => (globalThis as unknown as PageGlobals).__violations);
    if (violations.length > 0) lines.push(`CSP violations: ${violations.join(', ')}`);
    if (page.viewportSize() !== null && (await page.evaluate('devicePixelRatio')) !== 1) lines.push(`device pixel ratio ${String(await page.evaluate('devicePixelRatio'))}`);
    lines.push(`load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (${cpus().length} cores); the times above scale with it`);
    if (profiling) lines.push(`webview bundle with readable names (profiling): ${(bytes / 1024).toFixed(0)} KB, not the shipped size`);
    else lines.push(`production webview bundle: ${(bytes / 1024).toFixed(0)} KB (goal ≤ ${BUNDLE_GOAL_BYTES / 1024} KB, ${verdict(bytes, BUNDLE_GOAL_BYTES)})`);
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
