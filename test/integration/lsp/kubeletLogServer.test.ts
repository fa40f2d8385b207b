// The kubelet-log language server over the real protocol: the server bundle is built exactly as
// esbuild.mjs builds dist/server.js (entry src/server/main.ts), started as a process with --stdio, and
// driven by a plain JSON-RPC client (vscode-jsonrpc, no VS Code).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_FIXTURES, expectedStretches, fixtureText, plegPoints } from '../../support/jsonLogWindow';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REAL = readFileSync(join(ROOT, 'test/fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log'), 'utf8');
const URI = 'file:///tmp/kubelet-runtime-stopped.log';

interface Diag {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  message: string;
}

let dir: string;
let server: ChildProcess;
let rpc: MessageConnection;
let stderr = '';
const published: Array<{ uri: string; version?: number; diagnostics: Diag[] }> = [];
const waiters: Array<() => void> = [];

function nextDiagnostics(version: number): Promise<Diag[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no diagnostics for version ${version} within 20 s; server stderr:\n${stderr}`)), 20_000);
    const check = (): void => {
      const hit = published.find((p) => p.uri === URI && p.version === version);
      if (hit) {
        clearTimeout(timer);
        resolve(hit.diagnostics);
      } else waiters.push(check);
    };
    check();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-lsp-'));
  const outfile = join(dir, 'server.js');
  await esbuild.build({
    entryPoints: [join(ROOT, 'src/server/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'cpu-features', '*.node'],
    logLevel: 'silent',
  });
  server = spawn(process.execPath, [outfile, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  server.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  rpc = createMessageConnection(new StreamMessageReader(server.stdout as NodeJS.ReadableStream), new StreamMessageWriter(server.stdin as NodeJS.WritableStream));
  rpc.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number; diagnostics: Diag[] }) => {
    published.push(p);
    for (const w of waiters.splice(0)) w();
  });
  rpc.listen();
  const init = (await rpc.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: { textDocument: { publishDiagnostics: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true } } },
  })) as { capabilities: Record<string, unknown> };
  expect(init.capabilities).toMatchObject({ hoverProvider: true, foldingRangeProvider: true, codeLensProvider: {} });
  await rpc.sendNotification('initialized', {});
  await rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'kubelet-log', version: 1, text: REAL } });
}, 60_000);

afterAll(async () => {
  try {
    await rpc.sendRequest('shutdown');
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    await rpc.sendNotification('exit');
    // The server ends itself on "exit"; a server that does not is killed after 5 s (and the test fails).
    const onTime = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))]);
    expect(onTime, 'the server did not exit within 5 s of the "exit" notification').toBe(true);
  } finally {
    rpc.dispose();
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    // esbuild keeps a service process for its JS API; stop it so the test worker can end.
    await esbuild.stop();
  }
});

describe('kubelet-log language server over stdio', () => {
  it('publishes the PLEG stretch as one diagnostic spanning its lines', async () => {
    const diags = await nextDiagnostics(1);
    const pleg = diags.filter((d) => d.code === 'pleg-stretch');
    expect(pleg).toHaveLength(1);
    expect(pleg[0]?.range.start.line).toBe(3226);
    expect(pleg[0]?.range.end.line).toBe(3747);
    expect(pleg[0]?.severity).toBe(1);
    expect(pleg[0]?.message).toMatch(/^PLEG unhealthy for 115 s \(03:03:46 → 03:05:41, 24 lines\)/u);
    expect(diags.filter((d) => d.code === 'relist-failure').map((d) => d.range.start.line)).toEqual([2932, 3475]);
  });

  it('hover, symbols, folding and the summary code lens', async () => {
    const hover = (await rpc.sendRequest('textDocument/hover', { textDocument: { uri: URI }, position: { line: 2932, character: 5 } })) as {
      contents: { value: string };
    };
    expect(hover.contents.value).toContain('Relist could not list pods from the runtime: rpc error: code = DeadlineExceeded');
    expect(hover.contents.value).toContain('*Check next:*');

    const symbols = (await rpc.sendRequest('textDocument/documentSymbol', { textDocument: { uri: URI } })) as Array<{ name: string; range: Diag['range'] }>;
    const names = symbols.map((s) => s.name);
    expect(names[0]).toBe('02:59:17 Kubelet started (v1.32.10-kubeedge1)');
    expect(names).toContain('03:02:44 Relist could not list pods from the runtime: rpc error: code = DeadlineExceeded desc = context deadline exceeded');
    const lines = symbols.map((s) => s.range.start.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));

    const folds = (await rpc.sendRequest('textDocument/foldingRange', { textDocument: { uri: URI } })) as Array<{ startLine: number; endLine: number }>;
    expect(folds.map((f) => [f.startLine, f.endLine])).toEqual([
      [2941, 3747],
      [3226, 3747],
    ]);

    const lenses = (await rpc.sendRequest('textDocument/codeLens', { textDocument: { uri: URI } })) as Array<{ range: Diag['range']; command: { title: string } }>;
    expect(lenses).toHaveLength(1);
    expect(lenses[0]?.range.start.line).toBe(0);
    expect(lenses[0]?.command.title).toBe(
      'PLEG unhealthy 03:03:46 → 03:05:41: 1 stretch, 115 s in total, longest 115 s (line 3227) · 2 relist failures · 0 NotReady',
    );
  });

  it('edits right after opening (while the first analysis runs) and fast typing end in the last version\'s findings', async () => {
    const uri = 'file:///tmp/kubelet-second.log';
    const big = `${REAL}\n`.repeat(4);
    await rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'kubelet-log', version: 1, text: big } });
    const skip = (ago: string): string =>
      `E1122 09:00:00.000000   31657 kubelet.go:2273] "Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active ${ago} ago; threshold is 3m0s"\n`;
    // Insert a PLEG line at the top, then keep typing into it: versions 2..6, each an incremental change.
    await rpc.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: skip('3m1s') }],
    });
    for (let v = 3; v <= 6; v++) {
      await rpc.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: skip(`3m${v}s`) }],
      });
    }
    const waitFor = async (version: number): Promise<Diag[]> => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const hit = published.find((p) => p.uri === uri && p.version === version);
        if (hit) return hit.diagnostics;
        if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri} v${version}; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const diags = await waitFor(6);
    const top = diags.filter((d) => d.code === 'pleg-stretch' && d.range.start.line === 0);
    expect(top).toHaveLength(1);
    expect(top[0]?.message).toContain('last successful relist up to 186 s ago');
    // The four copies of the recording each keep their own stretch, shifted by the inserted line.
    expect(diags.filter((d) => d.code === 'pleg-stretch').map((d) => d.range.start.line)).toEqual([0, 3227, 3227 + 5457, 3227 + 2 * 5457, 3227 + 3 * 5457]);
    const hover = (await rpc.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 2 } })) as { contents: { value: string } };
    expect(hover.contents.value).toContain('PLEG unhealthy');
    await rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('a real kubelet JSON log (epoch-ms "ts"): one diagnostic from its first to its last "PLEG is not healthy" line', async () => {
    const uri = 'file:///tmp/kubelet-json.log';
    const text = fixtureText(JSON_FIXTURES.held);
    const expected = expectedStretches(plegPoints(text));
    await rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'kubelet-log', version: 1, text } });
    const deadline = Date.now() + 20_000;
    let hit = published.find((p) => p.uri === uri && p.version === 1);
    while (hit === undefined) {
      if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri}; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
      hit = published.find((p) => p.uri === uri && p.version === 1);
    }
    const pleg = hit.diagnostics.filter((d) => d.code === 'pleg-stretch');
    expect(pleg.map((d) => [d.range.start.line, d.range.end.line])).toEqual(expected.map((e) => [e.firstLine - 1, e.lastLine - 1]));
    expect(pleg[0]?.message).toContain(`(${expected[0]?.clock} → ${expected[0]?.lastClock}, ${expected[0]?.lines} lines)`);
    await rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('an incremental edit re-analyses: deleting the stretch lines removes the diagnostic', async () => {
    await nextDiagnostics(1);
    // Replace lines 3227..3748 (0-based 3226..3747) by nothing.
    await rpc.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ range: { start: { line: 3226, character: 0 }, end: { line: 3748, character: 0 } }, text: '' }],
    });
    const diags = await nextDiagnostics(2);
    expect(diags.filter((d) => d.code === 'pleg-stretch')).toEqual([]);
    const lenses = (await rpc.sendRequest('textDocument/codeLens', { textDocument: { uri: URI } })) as Array<{ command: { title: string } }>;
    expect(lenses[0]?.command.title).toMatch(/^PLEG Doctor: no PLEG-unhealthy stretch/u);
  });
});
