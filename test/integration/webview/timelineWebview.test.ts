// The timeline webview in headless Chromium, outside VS Code: the built bundle served from a loopback
// HTTP server inside the same HTML shell and CSP the panel sets (webviewHtml), acquireVsCodeApi stood in
// by a recorder, and the host's side of the protocol played by this test with recorded data: the
// timeline `pleg-doctor simulate` prints for test/fixtures/scenarios/frozen-runtime.json.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { englishText } from '../../../src/core/tree/localize';
import { parseScenario } from '../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../src/core/pleg/sim/simulate';
import type { SimulationRun } from '../../../src/core/pleg/sim/simulationRun';
import { scenarioSettings, timelineData, DEFAULT_WHAT_IF } from '../../../src/core/timeline/whatIf/whatIfTimeline';
import type { WhatIfResult } from '../../../src/core/timeline/whatIf/whatIfTypes';
import { sessionHeadline } from '../../../src/host/timeline/timelineHeadline';
import { webviewStrings } from '../../../src/host/timeline/timelineStrings';
import { webviewHtml } from '../../../src/host/timeline/webviewHtml';
import { PROTOCOL_VERSION, type HostToWebview, type PanelTarget, type WebviewToHost } from '../../../src/shared/timeline/panelProtocol';
import { recordedSession, SessionRecorder } from '../../support/timelineSession';

const ROOT = resolve(__dirname, '../../..');
const CHROMIUM = '/usr/bin/chromium';
const RESULTS = join(ROOT, 'test-results');

let dir: string;
let server: Server;
let origin: string;
let browser: Browser;
let recorded: WhatIfResult;

/** Records what the page posts and every CSP violation, before any page script runs. */
/** The page's globals this test reads; the root tsconfig has no DOM types. */
interface PageGlobals {
  __sent: WebviewToHost[];
  __violations: string[];
  __state: unknown;
  dispatchEvent(event: unknown): boolean;
}
interface Canvas2d {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}
declare const MessageEvent: new (type: string, init: { data: unknown }) => unknown;

const INIT_SCRIPT = `
  window.__sent = [];
  window.__violations = [];
  window.__state = undefined;
  // A light VS Code theme's variables, set through the CSSOM as VS Code does (the CSP allows no inline style).
  document.addEventListener('DOMContentLoaded', () => {
    const vars = {
      '--vscode-foreground': '#3b3b3b', '--vscode-editorWidget-border': '#e5e5e5', '--vscode-font-family': 'sans-serif', '--vscode-font-size': '13px',
      '--vscode-descriptionForeground': '#717171', '--vscode-errorForeground': '#f85149', '--vscode-editor-background': '#ffffff',
      '--vscode-button-background': '#005fb8', '--vscode-button-foreground': '#ffffff', '--vscode-button-secondaryBackground': '#e5e5e5', '--vscode-button-secondaryForeground': '#3b3b3b',
      '--vscode-panelTitle-activeForeground': '#3b3b3b', '--vscode-panelTitle-inactiveForeground': '#868686', '--vscode-panelTitle-activeBorder': '#005fb8', '--vscode-panel-background': '#ffffff',
      '--vscode-settings-dropdownBackground': '#ffffff', '--vscode-settings-dropdownForeground': '#3b3b3b', '--vscode-settings-dropdownBorder': '#cecece', '--vscode-dropdown-background': '#ffffff', '--vscode-dropdown-foreground': '#3b3b3b', '--vscode-dropdown-border': '#cecece',
      '--vscode-badge-background': '#cccccc', '--vscode-badge-foreground': '#3b3b3b',
    };
    for (const [k, v] of Object.entries(vars)) document.body.style.setProperty(k, v);
  });
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__sent.push(JSON.parse(JSON.stringify(m))),
    getState: () => window.__state,
    setState: (s) => { window.__state = s; },
  });
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'timeline-webview-'));
  // The same options esbuild.mjs uses for the production webview bundle.
  await esbuild.build({ absWorkingDir: ROOT, entryPoints: ['webview/timeline/main.ts'], outfile: join(dir, 'timeline.js'), bundle: true, minify: true, legalComments: 'none', platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'silent' });
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      const html = webviewHtml({ cspSource: origin } as vscode.Webview, {
        title: 'PLEG What-if Timeline',
        scriptUri: { toString: () => `${origin}/timeline.js` } as vscode.Uri,
        styleUris: [{ toString: () => `${origin}/timeline.css` } as vscode.Uri],
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    // Chromium asks for a favicon on its own; a VS Code webview never does.
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const file = { '/timeline.js': 'text/javascript', '/timeline.css': 'text/css' }[path];
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file }).end(readFileSync(join(dir, path.slice(1))));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // What `pleg-doctor simulate frozen-runtime.json` prints, through JSON as a recording would be.
  const scenario = parseScenario(JSON.parse(readFileSync(join(ROOT, 'test/fixtures/scenarios/frozen-runtime.json'), 'utf8')));
  const timeline = JSON.parse(JSON.stringify(simulate(scenario))) as SimulationRun;
  recorded = timelineData(timeline, { title: 'frozen-runtime (recorded)', ...scenarioSettings(scenario) });

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    timeout: 60_000,
  });
});

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((ok) => server?.close(ok));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Session {
  page: Page;
  consoleErrors: string[];
}

async function open(savedState?: unknown, target: PanelTarget | null = null): Promise<Session> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await page.addInitScript(INIT_SCRIPT);
  // What getState() returns when VS Code rebuilds a page it had hidden.
  if (savedState !== undefined) await page.addInitScript((state) => Object.assign(globalThis, { __state: state }), savedState);
  await page.goto(`${origin}/`);
  const ready = await nextSent(page, 'ready');
  expect(ready).toEqual({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
  await toPage(page, { type: 'init', protocolVersion: PROTOCOL_VERSION, strings: webviewStrings(englishText), params: DEFAULT_WHAT_IF, target, recording: null });
  await page.locator(target === null ? '#run' : '#session').waitFor();
  return { page, consoleErrors };
}

async function sent(page: Page): Promise<WebviewToHost[]> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__sent);
}

async function nextSent<T extends WebviewToHost['type']>(page: Page, type: T): Promise<Extract<WebviewToHost, { type: T }>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const hit = (await sent(page)).filter((m) => m.type === type).pop();
    if (hit !== undefined) return hit as Extract<WebviewToHost, { type: T }>;
    if (Date.now() > deadline) throw new Error(`the page never sent ${type}; it sent ${JSON.stringify(await sent(page))}`);
    await page.waitForTimeout(50);
  }
}

async function toPage(page: Page, message: HostToWebview): Promise<void> {
  await page.evaluate((data) => {
    (globalThis as unknown as PageGlobals).dispatchEvent(new MessageEvent('message', { data }));
  }, message);
}

/** Pixels of the chart canvas within `tolerance` of an RGB colour, as seen on the page. */
async function pixelsNear(page: Page, rgb: [number, number, number], tolerance = 12, selector = '#chart canvas'): Promise<number> {
  return page.locator(selector).first().evaluate((canvas: Canvas2d, [r, g, b, tol]) => {
    const px = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    // The canvas is transparent: composite each pixel over the page's white background first.
    const onWhite = (c: number, a: number): number => c * a + 255 * (1 - a);
    for (let i = 0; i < px.length; i += 4) {
      const a = px[i + 3]! / 255;
      if (Math.abs(onWhite(px[i]!, a) - r) <= tol && Math.abs(onWhite(px[i + 1]!, a) - g) <= tol && Math.abs(onWhite(px[i + 2]!, a) - b) <= tol) n++;
    }
    return n;
  }, [...rgb, tolerance] as const);
}

/** A translucent fill over the page's white background. */
const over = (rgb: [number, number, number], alpha: number): [number, number, number] => rgb.map((c) => Math.round(c * alpha + 255 * (1 - alpha))) as [number, number, number];

describe('timeline webview in headless Chromium', () => {
  it('draws a recorded frozen-runtime timeline: every series and band, findings first, no CSP violation', async () => {
    const { page, consoleErrors } = await open();
    await page.locator('#run').click();
    const request = await nextSent(page, 'simulate');
    expect(request.params).toEqual(DEFAULT_WHAT_IF);
    await expect(page.locator('#status').textContent()).resolves.toBe('Simulating…');
    await toPage(page, { type: 'timeline', requestId: request.requestId, data: recorded });
    await page.locator('#chart canvas').first().waitFor();
    await expect(page.locator('#status').textContent()).resolves.toBe('');

    // The recording has every series and both bands.
    expect(recorded.unhealthy.length).toBeGreaterThan(0);
    expect(recorded.notReady.length).toBeGreaterThan(0);
    expect(recorded.series.failedRelist.some((v) => v !== null)).toBe(true);
    const legend = await page.locator('#chart .legend li').evaluateAll((items) => items.map((li) => [(li as unknown as { dataset: Record<string, string> }).dataset['key'], li.textContent]));
    expect(legend.map(([key]) => key)).toEqual(['health', 'threshold', 'duration', 'failed', 'unhealthy', 'notReady']);
    // A colour means one thing in both tabs: the legend's swatches are the session tab's for the same things.
    const swatch = (key: string): Promise<string> => page.locator(`#chart .legend li[data-key="${key}"] .swatch`).evaluate((n) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(n).backgroundColor);
    await expect(swatch('unhealthy')).resolves.toBe('rgb(241, 76, 76)');
    await expect(swatch('notReady')).resolves.toBe('rgb(209, 134, 22)');
    expect(legend.find(([key]) => key === 'threshold')![1]).toBe('threshold: unhealthy above 180 s');
    // uPlot's own live legend ("Value: --") is gone.
    await expect(page.locator('.u-legend').count()).resolves.toBe(0);
    await expect(page.getByText('Value').count()).resolves.toBe(0);

    // Each series and band reached the canvas in its colour.
    const colours: Record<string, [number, number, number]> = {
      health: [0x37, 0x94, 0xff],
      threshold: [0xcc, 0xa7, 0x00],
      duration: [0x89, 0xd1, 0x85],
      failed: [0xf1, 0x4c, 0x4c],
      // The session tab's colours: PLEG unhealthy its translucent red band, NotReady its predicted-lane orange.
      unhealthyBand: over([241, 76, 76], 0.12),
      notReadyBand: [0xd1, 0x86, 0x16],
    };
    for (const [name, rgb] of Object.entries(colours)) expect(await pixelsNear(page, rgb), name).toBeGreaterThan(20);

    // The findings come before the chart, the most important first.
    const notes = await page.locator('#notes li').allTextContents();
    expect(notes).toEqual(recorded.findings.map((f) => f.text));
    expect(notes[0]).toMatch(/^Node posted Ready=False at/);
    const notesBox = await page.locator('#notes').boundingBox();
    const chartBox = await page.locator('#chart').boundingBox();
    expect(notesBox!.y).toBeLessThan(chartBox!.y);
    await expect(page.locator('#notes li.headline').count()).resolves.toBe(1);

    mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: join(RESULTS, 'webview-timeline-frozen-runtime.png'), fullPage: true });
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__violations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // The knobs were kept with setState for the next time the panel is shown.
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__state)).toEqual({ params: DEFAULT_WHAT_IF, ran: true, target: null, recording: null });
    await page.close();
  });

  it('a page rebuilt from saved state shows the saved knobs and runs the last simulation again', async () => {
    const params = { ...DEFAULT_WHAT_IF, pods: 42 };
    const { page } = await open({ params, ran: true });
    const request = await nextSent(page, 'simulate');
    expect(request.params).toEqual(params);
    await expect(page.locator('#param-pods').evaluate((f) => (f as unknown as { value: string }).value)).resolves.toBe('42');
    await page.close();
  });

  it('a refused handshake (another protocol version) is shown instead of an empty page', async () => {
    const page = await browser.newPage();
    await page.addInitScript(INIT_SCRIPT);
    await page.goto(`${origin}/`);
    await nextSent(page, 'ready');
    await toPage(page, { type: 'error', requestId: null, message: 'The panel speaks protocol version 0, the extension 1: reopen the panel.' });
    await expect(page.locator('#app .error').textContent()).resolves.toBe('The panel speaks protocol version 0, the extension 1: reopen the panel.');
    await page.close();
  });

  it('an out-of-range knob is refused in the panel with a visible message, and nothing is sent', async () => {
    const { page, consoleErrors } = await open();
    await page.locator('#param-pods').evaluate((field) => {
      (field as unknown as { value: string }).value = '5000';
    });
    await page.locator('#run').click();
    await page.locator('#error').waitFor({ state: 'visible' });
    await expect(page.locator('#error').textContent()).resolves.toBe('Pods must be between 0 and 1000');
    expect((await sent(page)).filter((m) => m.type === 'simulate')).toEqual([]);
    await expect(page.locator('#status').textContent()).resolves.toBe('');
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('"-5" typed into Pods is refused as out of range (it once ran with 5), and the last results are dimmed under the error until a run succeeds', async () => {
    const { page, consoleErrors } = await open();
    await page.locator('#run').click();
    const first = await nextSent(page, 'simulate');
    await toPage(page, { type: 'timeline', requestId: first.requestId, data: recorded });
    await page.locator('#chart canvas').first().waitFor();
    const stale = (): Promise<boolean[]> => page.locator('#notes, #chart').evaluateAll((nodes) => nodes.map((n) => n.classList.contains('stale')));
    await expect(stale()).resolves.toEqual([false, false]);
    // Typed as a user types it, key by key, into the field (not set through its property).
    await page.locator('#param-pods').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('-5');
    await expect(page.locator('#param-pods').evaluate((f) => (f as unknown as { value: string }).value)).resolves.toBe('-5');
    await page.locator('#run').click();
    await page.locator('#error').waitFor({ state: 'visible' });
    await expect(page.locator('#error').textContent()).resolves.toBe('Pods must be between 0 and 1000');
    expect((await sent(page)).filter((m) => m.type === 'simulate')).toHaveLength(1);
    await expect(stale()).resolves.toEqual([true, true]);
    const opacity = await page.locator('#chart').evaluate((n) => (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(n).opacity);
    expect(Number(opacity)).toBeLessThan(0.5);
    // A valid value runs again and the results are bright once the answer is drawn.
    await page.locator('#param-pods').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('7');
    await page.locator('#run').click();
    const second = await nextSent(page, 'simulate');
    expect(second.params.pods).toBe(7);
    await toPage(page, { type: 'timeline', requestId: second.requestId, data: recorded });
    await expect(stale()).resolves.toEqual([false, false]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('a host error for the pending request ends "Simulating…" and shows the reason', async () => {
    const { page } = await open();
    await page.locator('#run').click();
    const request = await nextSent(page, 'simulate');
    await toPage(page, { type: 'error', requestId: request.requestId, message: 'The simulation failed: boom' });
    await page.locator('#error').waitFor({ state: 'visible' });
    await expect(page.locator('#error').textContent()).resolves.toBe('The simulation failed: boom');
    await expect(page.locator('#status').textContent()).resolves.toBe('');
    await page.close();
  });

  it('Cancel asks the host to stop the pending run and a late answer is ignored', async () => {
    const { page } = await open();
    await page.locator('#run').click();
    const request = await nextSent(page, 'simulate');
    await page.locator('#cancel').click();
    expect(await nextSent(page, 'cancel')).toEqual({ type: 'cancel', requestId: request.requestId });
    await toPage(page, { type: 'timeline', requestId: request.requestId, data: recorded });
    await expect(page.locator('#status').textContent()).resolves.toBe('Simulation cancelled.');
    await expect(page.locator('#chart canvas').count()).resolves.toBe(0);
    await page.close();
  });
});

/** Pixels per colour in one lane (row) of the lanes chart: the strip through the lane's bar. */
async function laneColours(page: Page, row: number, colours: Record<string, [number, number, number]>): Promise<Record<string, number>> {
  return page.locator('#lanes-chart').evaluate(
    (host, [lane, wanted]) => {
      const h = host as unknown as { querySelector(s: string): { offsetTop: number; offsetLeft: number; offsetWidth: number } & Canvas2d };
      const over = h.querySelector('.u-over');
      const canvas = h.querySelector('canvas');
      const y0 = over.offsetTop + lane * 22 + 7;
      const px = canvas.getContext('2d')!.getImageData(over.offsetLeft, y0, over.offsetWidth, 8).data;
      const counts: Record<string, number> = {};
      const onWhite = (c: number, a: number): number => c * a + 255 * (1 - a);
      for (const [name, [r, g, b]] of Object.entries(wanted)) {
        let n = 0;
        for (let i = 0; i < px.length; i += 4) {
          const a = px[i + 3]! / 255;
          if (Math.abs(onWhite(px[i]!, a) - r) <= 12 && Math.abs(onWhite(px[i + 1]!, a) - g) <= 12 && Math.abs(onWhite(px[i + 2]!, a) - b) <= 12) n++;
        }
        counts[name] = n;
      }
      return counts;
    },
    [row, colours] as const,
  );
}

/** Pixels per colour in the fixed lanes' rows of the lanes canvas, left and right of the plot (labels, right axis). */
async function laneColoursOutsidePlot(page: Page, colours: Record<string, [number, number, number]>): Promise<Record<string, number>> {
  return page.locator('#lanes-chart').evaluate((host, wanted) => {
    const h = host as unknown as { querySelector(s: string): { offsetTop: number; offsetLeft: number; offsetWidth: number } & Canvas2d };
    const over = h.querySelector('.u-over');
    const canvas = h.querySelector('canvas');
    const ctx = canvas.getContext('2d')!;
    const counts: Record<string, number> = Object.fromEntries(Object.keys(wanted).map((k) => [k, 0]));
    const strips = [
      [0, over.offsetLeft],
      [over.offsetLeft + over.offsetWidth, canvas.width - over.offsetLeft - over.offsetWidth],
    ];
    for (const [x, w] of strips) {
      if (w! <= 0) continue;
      const px = ctx.getImageData(x!, over.offsetTop, w!, 3 * 22).data;
      const onWhite = (c: number, a: number): number => c * a + 255 * (1 - a);
      for (let i = 0; i < px.length; i += 4) {
        const a = px[i + 3]! / 255;
        for (const [name, [r, g, b]] of Object.entries(wanted)) {
          if (Math.abs(onWhite(px[i]!, a) - r) <= 12 && Math.abs(onWhite(px[i + 1]!, a) - g) <= 12 && Math.abs(onWhite(px[i + 2]!, a) - b) <= 12) counts[name]!++;
        }
      }
    }
    return counts;
  }, colours);
}

const NODE: PanelTarget = { context: 'prod-eu', node: 'prod-eu-node-07' };
const PREDICTION = 'PLEG is unhealthy since 03:05:00 UTC: last seen active 3m5s ago, threshold 3m0s; the kubelet posts NotReady by 03:05:10 UTC';

describe('the session pane in headless Chromium', () => {
  it('draws a recorded session: every lane, the prediction and lacks in words, hover details, no CSP violation', async () => {
    const session = JSON.parse(JSON.stringify(recordedSession({ durationS: 600, pods: 30, freeze: { atS: 120, forS: 300 } }))) as ReturnType<typeof recordedSession>;
    // The recording has everything the pane draws.
    expect(session.relists.some((r) => !r.ok)).toBe(true);
    expect(session.relists.some((r) => r.discards > 0)).toBe(true);
    expect(session.health.some((h) => !h.healthy)).toBe(true);
    expect(session.ready.some((r) => r.status === 'False')).toBe(true);
    for (const type of ['ContainerStarted', 'ContainerDied', 'ContainerRemoved', 'ContainerChanged']) expect(session.podEvents.some((e) => e.type === type), type).toBe(true);

    const { page, consoleErrors } = await open(undefined, NODE);
    // The node is kept for the serializer before anything else happens.
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__state)).toMatchObject({ target: NODE, recording: null });
    await toPage(page, { type: 'session', mode: 'replay', label: 'the recording session.json (a PLEG Doctor session)', session, headline: sessionHeadline(session, false, englishText), prediction: PREDICTION, feed: 'ended' });
    await page.locator('#session-chart canvas').first().waitFor();
    await page.locator('#lanes-chart canvas').first().waitFor();

    await expect(page.locator('#session-title').textContent()).resolves.toBe('PLEG timeline of prod-eu-node-07');
    await expect(page.locator('#session-label').textContent()).resolves.toBe('Replay, not live — the recording session.json (a PLEG Doctor session)');
    await expect(page.locator('#prediction').textContent()).resolves.toBe(PREDICTION);
    await expect(page.locator('#lacks li').allTextContents()).resolves.toEqual(session.lacks);
    await expect(page.locator('#feed-state').textContent()).resolves.toBe('Recording: complete');
    // A replay cannot be paused.
    await expect(page.locator('#pause').isHidden()).resolves.toBe(true);
    // The sentence and lacks come before the charts.
    expect((await page.locator('#prediction').boundingBox())!.y).toBeLessThan((await page.locator('#session-chart').boundingBox())!.y);

    const legend = await page.locator('#session-legend li').evaluateAll((items) => items.map((li) => (li as unknown as { dataset: Record<string, string> }).dataset['key']));
    expect(legend).toEqual(['health', 'threshold', 'duration', 'failed', 'kubeletAge', 'kubeletDuration', 'discards', 'rpcErrors', 'unhealthy', 'predicted', 'readyFalse', 'started', 'died', 'removed', 'changed']);

    const main = '#session-chart canvas';
    const colours: Record<string, [number, number, number]> = {
      health: [0x37, 0x94, 0xff],
      threshold: [0xcc, 0xa7, 0x00],
      duration: [0x89, 0xd1, 0x85],
      failed: [0xf1, 0x4c, 0x4c],
      kubeletDuration: [0xd1, 0x86, 0x16],
      kubeletAgeAndDiscards: [0xb1, 0x80, 0xd7],
      unhealthyBand: over([241, 76, 76], 0.12),
    };
    for (const [name, rgb] of Object.entries(colours)) expect(await pixelsNear(page, rgb, 12, main), name).toBeGreaterThan(20);

    const green: [number, number, number] = [0x73, 0xc9, 0x91];
    const red: [number, number, number] = [0xf1, 0x4c, 0x4c];
    const orange: [number, number, number] = [0xd1, 0x86, 0x16];
    const health = await laneColours(page, 0, { healthy: green, unhealthy: red });
    expect(health.healthy, 'health lane: healthy').toBeGreaterThan(100);
    expect(health.unhealthy, 'health lane: unhealthy').toBeGreaterThan(100);
    expect((await laneColours(page, 1, { predicted: orange })).predicted, 'predicted NotReady lane').toBeGreaterThan(100);
    const ready = await laneColours(page, 2, { ready: green, notReady: red });
    expect(ready.ready, 'Ready lane: True').toBeGreaterThan(100);
    expect(ready.notReady, 'Ready lane: False').toBeGreaterThan(100);
    const events = { started: [0x89, 0xd1, 0x85], died: red, removed: [0x88, 0x88, 0x88], changed: [0x37, 0x94, 0xff] } as Record<string, [number, number, number]>;
    const perType: Record<string, number> = { started: 0, died: 0, removed: 0, changed: 0 };
    const podLanes = Math.min(12, new Set(session.podEvents.map((e) => e.pod)).size);
    for (let row = 3; row < 3 + podLanes + 1; row++) {
      const counts = await laneColours(page, row, events);
      if (row < 3 + podLanes) expect(Object.values(counts).reduce((a, b) => a + b, 0), `pod lane ${row - 3}`).toBeGreaterThan(0);
      for (const k of Object.keys(perType)) perType[k]! += counts[k]!;
    }
    for (const [k, n] of Object.entries(perType)) expect(n, `${k} events drawn`).toBeGreaterThan(0);

    // Hover: one relist's details, with its CRI calls.
    const box = (await page.locator('#session-chart .u-over').boundingBox())!;
    const failedRelist = session.relists.find((r) => !r.ok)!;
    const xAt = box.x + (box.width * failedRelist.endMs) / session.durationMs;
    await page.mouse.move(xAt, box.y + box.height / 2);
    await page.locator('#relist-details h3').waitFor();
    const details = await page.locator('#relist-details').textContent();
    expect(details).toContain('ListPodSandbox');
    expect(details).toMatch(/Failed: rpc error: code = DeadlineExceeded/);
    // The value under the pointer is the drawn line's there, said before the nearest relist's details.
    await expect(page.locator('#at-cursor').textContent()).resolves.toMatch(/^At \d\d:\d\d:\d\d UTC · time since the last successful relist started: \d+\.\d s/);

    // The headline: the node's state at the recording's end, in the tree's words.
    await expect(page.locator('#headline').getAttribute('data-verdict')).resolves.toBe('ready');
    await expect(page.locator('#headline strong').textContent()).resolves.toBe('Ready');
    await expect(page.locator('#headline').textContent()).resolves.toMatch(/at the recording's end, \d\d:\d\d:\d\d UTC/);

    // The README's picture of a replay: taken on every run, copied over the README's only on request (as the
    // e2e does with PLEG_E2E_UPDATE_SCREENSHOTS), so a test run leaves the checkout as it found it.
    mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: join(RESULTS, 'timeline-replay.png'), fullPage: true });
    if (process.env['PLEG_E2E_UPDATE_SCREENSHOTS'] === '1') copyFileSync(join(RESULTS, 'timeline-replay.png'), join(ROOT, 'media/timeline-replay.png'));

    // A drag-zoom into the unhealthy window: the lane bars stay inside the plot, off their labels and the right axis.
    const lanesBox = (await page.locator('#lanes-chart .u-over').boundingBox())!;
    const unhealthyFrom = session.health.find((h) => !h.healthy)!.atMs / session.durationMs;
    await page.mouse.move(lanesBox.x + lanesBox.width * (unhealthyFrom + 0.02), lanesBox.y + 5);
    await page.mouse.down();
    await page.mouse.move(lanesBox.x + lanesBox.width * (unhealthyFrom + 0.2), lanesBox.y + 5, { steps: 6 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    const outside = await laneColoursOutsidePlot(page, { healthy: green, unhealthy: red, predicted: orange });
    expect(outside, 'lane colours left and right of the plot after a zoom').toEqual({ healthy: 0, unhealthy: 0, predicted: 0 });
    // The zoomed view is the window's inside: the health lane is red across the plot.
    expect((await laneColours(page, 0, { unhealthy: red })).unhealthy).toBeGreaterThan(lanesBox.width * 4);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__violations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('kubelet 1.36: the mean per-pod relist duration from the metrics is drawn beside the mean relist duration', async () => {
    const session = JSON.parse(JSON.stringify(recordedSession({ durationS: 600, pods: 30, freeze: { atS: 120, forS: 300 } }))) as ReturnType<typeof recordedSession>;
    const orange: [number, number, number] = [0xd1, 0x86, 0x16];
    const without = await open(undefined, NODE);
    await toPage(without.page, { type: 'session', mode: 'replay', label: 'a 1.32 recording', session, headline: sessionHeadline(session, false, englishText), prediction: PREDICTION, feed: 'ended' });
    await without.page.locator('#session-chart canvas').first().waitFor();
    const orangeWithout = await pixelsNear(without.page, orange, 12, '#session-chart canvas');
    await without.page.close();
    // A per-pod relist of 30 s on every scrape: far above every other duration on the log axis.
    for (const k of session.kubelet) k.podRelistDurationS = 30;
    const { page, consoleErrors } = await open(undefined, NODE);
    await toPage(page, { type: 'session', mode: 'replay', label: 'a 1.36 recording', session, headline: sessionHeadline(session, false, englishText), prediction: PREDICTION, feed: 'ended' });
    await page.locator('#session-chart canvas').first().waitFor();
    const legend = await page.locator('#session-legend li').evaluateAll((items) => items.map((li) => [(li as unknown as { dataset: Record<string, string> }).dataset['key'], li.textContent]));
    expect(legend.map(([key]) => key).slice(4, 7)).toEqual(['kubeletAge', 'kubeletDuration', 'kubeletPodDuration']);
    expect(legend.find(([key]) => key === 'kubeletPodDuration')![1]).toContain('kubelet: mean per-pod relist duration (metrics, 1.36+)');
    // Its dashed line and hollow points are drawn in the kubelet's orange, over and above the relist means.
    expect(await pixelsNear(page, orange, 12, '#session-chart canvas'), 'orange with the per-pod means').toBeGreaterThan(orangeWithout + 100);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__violations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('a relist forced by a failed GetContainerEvents stream says so, and which failure it was, on hover', async () => {
    const session = JSON.parse(JSON.stringify(recordedSession({ durationS: 600, pods: 30, freeze: { atS: 120, forS: 300 } }))) as ReturnType<typeof recordedSession>;
    const forced = session.relists.find((r) => !r.ok)!;
    forced.streamFailure = { error: 'rpc error: code = Unimplemented desc = method GetContainerEvents not implemented', failures: 2 };
    const { page, consoleErrors } = await open(undefined, NODE);
    await toPage(page, { type: 'session', mode: 'replay', label: 'an evented recording', session, headline: sessionHeadline(session, false, englishText), prediction: PREDICTION, feed: 'ended' });
    await page.locator('#session-chart canvas').first().waitFor();
    const box = (await page.locator('#session-chart .u-over').boundingBox())!;
    await page.mouse.move(box.x + (box.width * forced.endMs) / session.durationMs, box.y + box.height / 2);
    await page.locator('#relist-details h3').waitFor();
    await expect(page.locator('#relist-details').textContent()).resolves.toContain(
      'Forced by a failed GetContainerEvents stream, failure 2 (the kubelet returns to generic relisting at 1 s / 3 min after 5): rpc error: code = Unimplemented desc = method GetContainerEvents not implemented',
    );
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('live: a pod that overtakes another for a lane gets it, with its label, in the same lanes chart', async () => {
    const recorder = new SessionRecorder({ durationS: 60, pods: 20 });
    recorder.advance(30_000);
    const session = JSON.parse(JSON.stringify(recorder.session)) as typeof recorder.session;
    // 14 pods with 1..14 events: 12 lanes and "other pods".
    session.podEvents = Array.from({ length: 14 }, (_p, pod) => Array.from({ length: pod + 1 }, (_e, i) => ({ atMs: 1_000 * (i + 1), pod: `default/pod-${pod}`, type: 'ContainerStarted' as const, container: 'c' }))).flat();
    const { page, consoleErrors } = await open(undefined, NODE);
    await toPage(page, { type: 'session', mode: 'live', label: 'lanes', session, headline: sessionHeadline(session, true, englishText), prediction: null, feed: 'running' });
    const lanes = page.locator('#lanes-chart canvas').first();
    await lanes.waitFor();
    // The lane names are drawn in the chart's left axis: its pixels, and a mark on this very canvas.
    const labels = (): Promise<string> =>
      lanes.evaluate((canvas: Canvas2d & { __mark?: number }) => {
        canvas.__mark = 1;
        return Array.from(canvas.getContext('2d')!.getImageData(0, 0, 160, canvas.height).data).join(',');
      });
    const before = await labels();
    const height = await lanes.evaluate((canvas: Canvas2d) => canvas.height);
    const delta = recorder.advance(31_000);
    // A pod unseen so far, with more events than any other: it takes a lane; the lane count stays.
    delta.podEvents = Array.from({ length: 500 }, (_v, i) => ({ atMs: 30_000 + i, pod: 'zz/overtaker', type: 'ContainerStarted' as const, container: 'c' }));
    await toPage(page, { type: 'sessionDelta', delta, headline: sessionHeadline(session, true, englishText), prediction: null });
    await page.waitForTimeout(100);
    expect(await lanes.evaluate((canvas: Canvas2d & { __mark?: number }) => [canvas.__mark, canvas.height])).toEqual([1, height]);
    expect(await labels()).not.toBe(before);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it("live: a replaced session (the agent's 410 reread) is drawn instead of the one shown; the label and range stay, later deltas grow it, a re-judgement changes the words only", async () => {
    const recorder = new SessionRecorder({ durationS: 120, pods: 10 });
    recorder.advance(90_000);
    const { page, consoleErrors } = await open(undefined, NODE);
    const label = 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2';
    await toPage(page, { type: 'session', mode: 'live', label, session: JSON.parse(JSON.stringify(recorder.session)) as typeof recorder.session, headline: sessionHeadline(recorder.session, true, englishText), prediction: 'before', feed: 'running' });
    await page.locator('#session-chart canvas').first().waitFor();
    const relists = (): Promise<string | null> => page.locator('#session').getAttribute('data-relists');
    const shown = Number(await relists());
    expect(shown).toBe(recorder.session.relists.length);
    const green: [number, number, number] = [0x89, 0xd1, 0x85];
    const before = await pixelsNear(page, green, 12, '#session-chart canvas');
    // The user picks the last 5 minutes: a replacement keeps that choice.
    await page.locator('#range').evaluate((el: { value: string; dispatchEvent(e: unknown): boolean }) => {
      el.value = '300';
      el.dispatchEvent(new (globalThis as unknown as { Event: new (t: string) => unknown }).Event('change'));
    });

    // The agent restarted: its session is 10 s long, with one failed relist the old one never had.
    const fresh = new SessionRecorder({ durationS: 20, pods: 2, freeze: { atS: 2, forS: 60 } });
    fresh.advance(10_000);
    const again = JSON.parse(JSON.stringify(fresh.session)) as typeof fresh.session;
    again.lacks = ['the agent restarted'];
    await toPage(page, { type: 'sessionReplaced', session: again, headline: sessionHeadline(again, true, englishText), prediction: 'after' });
    await page.waitForTimeout(100);
    expect(Number(await relists())).toBe(again.relists.length);
    expect(again.relists.length).toBeLessThan(shown);
    await expect(page.locator('#prediction').textContent()).resolves.toBe('after');
    await expect(page.locator('#lacks li').allTextContents()).resolves.toEqual(['the agent restarted']);
    await expect(page.locator('#session-label').textContent()).resolves.toBe(`Live — ${label}`);
    await expect(page.locator('#feed-state').textContent()).resolves.toBe('Receiving');
    expect(await page.locator('#range').evaluate((el: { value: string }) => el.value)).toBe('300');
    // Fewer relists drawn: the old session's line is gone, not kept under the new one.
    expect(await pixelsNear(page, green, 12, '#session-chart canvas')).toBeLessThan(before);

    // A delta after it applies to the replaced session.
    const delta = fresh.advance(12_000);
    await toPage(page, { type: 'sessionDelta', delta, headline: sessionHeadline(fresh.session, true, englishText), prediction: 'grown' });
    await page.waitForTimeout(100);
    expect(Number(await relists())).toBe(fresh.session.relists.length);
    await expect(page.locator('#prediction').textContent()).resolves.toBe('grown');
    // Judged again with no new data (the source silent): the words change, the session does not.
    await toPage(page, { type: 'sessionNow', headline: sessionHeadline(fresh.session, true, englishText), prediction: 'at this rate the threshold is crossed' });
    await toPage(page, { type: 'feedState', feed: 'running', message: 'No answer from agent pod x since 10:00:05 UTC (timeout); retrying' });
    await expect(page.locator('#prediction').textContent()).resolves.toBe('at this rate the threshold is crossed');
    await expect(page.locator('#feed-state').textContent()).resolves.toBe('No answer from agent pod x since 10:00:05 UTC (timeout); retrying');
    expect(Number(await relists())).toBe(fresh.session.relists.length);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('live: deltas grow the charts, Pause asks the host and shows it, exports are requested by format', async () => {
    const recorder = new SessionRecorder({ durationS: 60, pods: 10 });
    recorder.advance(30_000);
    const { page, consoleErrors } = await open(undefined, NODE);
    await toPage(page, { type: 'session', mode: 'live', label: 'prod-eu-node-07 in prod-eu, over SSH and the API server', session: JSON.parse(JSON.stringify(recorder.session)) as typeof recorder.session, headline: sessionHeadline(recorder.session, true, englishText), prediction: 'healthy: the last relist took 3ms, budget 2m59s', feed: 'running' });
    await page.locator('#session-chart canvas').first().waitFor();
    await expect(page.locator('#feed-state').textContent()).resolves.toBe('Receiving');
    const before = await pixelsNear(page, [0x89, 0xd1, 0x85], 12, '#session-chart canvas');
    for (let s = 31; s <= 60; s++) await toPage(page, { type: 'sessionDelta', delta: recorder.advance(s * 1000), headline: sessionHeadline(recorder.session, true, englishText), prediction: `after ${s} s` });
    await page.waitForTimeout(100);
    await expect(page.locator('#prediction').textContent()).resolves.toBe('after 60 s');
    // The whole session is shown: the relist line now spans twice the time.
    expect(await pixelsNear(page, [0x89, 0xd1, 0x85], 12, '#session-chart canvas')).toBeGreaterThan(before);

    await page.locator('#pause').click();
    const pause = await nextSent(page, 'pause');
    await expect(page.locator('#feed-state').textContent()).resolves.toBe('Paused: new samples are not drawn');
    await expect(page.locator('#pause').textContent()).resolves.toBe('Resume');
    await page.locator('#pause').click();
    const resume = await nextSent(page, 'resume');
    expect(resume.requestId).toBeGreaterThan(pause.requestId);

    await page.locator('#export-csv').click();
    const csv = await nextSent(page, 'export');
    expect(csv.format).toBe('csv');
    await toPage(page, { type: 'exported', requestId: csv.requestId, path: '/tmp/x.csv' });
    await expect(page.locator('#feed-state').textContent()).resolves.toBe('Saved to /tmp/x.csv');
    await page.locator('#export-json').click();
    await page.waitForTimeout(50);
    expect((await sent(page)).filter((m) => m.type === 'export').map((m) => (m as { format: string }).format)).toEqual(['csv', 'json']);

    // The what-if stays available in its own pane.
    await page.locator('vscode-tab-header[data-pane="whatIf"]').click();
    await page.locator('#run').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__state)).toMatchObject({ target: NODE, pane: 'whatIf' });
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});
