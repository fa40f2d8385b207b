// A Go goroutine dump as the kubelet serves it at /debug/pprof/goroutine?debug=2:
//   goroutine 244 [select, 2 minutes]:
//   google.golang.org/grpc/internal/transport.(*Stream).waitOnHeader(0xc000b08ea0)
//   	google.golang.org/grpc@v1.67.1/internal/transport/transport.go:378 +0x7c
//   …
//   created by k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Start in goroutine 150
//   	k8s.io/kubernetes@v1.32.10/pkg/kubelet/pleg/generic.go:163 +0x170
// Blocks are separated by blank lines; each frame is a function line and a tab-indented file line.
// What matters for PLEG: where the relist goroutine waits, and how many goroutines wait on the runtime.

import type { GoroutineInfo, GoroutineSummary } from './kubeletEndpointTypes';

export class GoroutineDumpError extends Error {
  override readonly name = 'GoroutineDumpError';
}

/** `goroutine 244 [select, 2 minutes]:`; Go 1.21+ crash dumps may put `gp=… m=…` before the bracket. */
const HEADER = /^goroutine (\d+)(?: [^[]*)? \[([^\]]*)\]:\s*$/;
const CREATED_BY = /^created by (\S+)(?: in goroutine \d+)?\s*$/;
const ELIDED = /^\.\.\.(?:\d+ )?(?:additional )?frames? elided\.\.\.\s*$/;
/** The generated CRI clients: runtime/v1 (1.23+), runtime/v1alpha2, and the 1.5–1.9 v1alpha1/runtime. */
const CRI_CLIENT = /(?:\/runtime\/v1(?:alpha2)?|\/v1alpha1\/runtime)\.\(\*(?:runtime|image)ServiceClient\)\.(\w+)$/;
const RELIST = /\/pleg\.\(\*GenericPLEG\)\.[Rr]elist$/;
const PLEG_START = /\/pleg\.\(\*GenericPLEG\)\.Start$/;
/** What the relist loop sleeps in between runs: wait.Until/JitterUntil/BackoffUntil and Go's timers. */
const IDLE_FRAME = /\/util\/wait\.\w+$|^time\./;

/** A goroutine of the dump, with the `created by` function kept apart from the stack. */
export interface ParsedGoroutine extends GoroutineInfo {
  createdBy?: string;
}

/** Strips the argument list `(0xc000…, {…}, …)` from a frame's function line. */
function functionName(line: string): string {
  const trimmed = line.trimEnd();
  if (!trimmed.endsWith(')')) return trimmed;
  let depth = 0;
  for (let i = trimmed.length - 1; i >= 0; i--) {
    const c = trimmed[i];
    if (c === ')') depth++;
    else if (c === '(' && --depth === 0) return trimmed.slice(0, i);
  }
  return trimmed;
}

export function parseGoroutineDump(text: string): ParsedGoroutine[] {
  const goroutines: ParsedGoroutine[] = [];
  let current: ParsedGoroutine | undefined;
  // The line after a function line must be its file line.
  let expectFileLine = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    const fail = (reason: string): GoroutineDumpError => {
      const shown = line.length > 120 ? `${line.slice(0, 120)}…` : line;
      return new GoroutineDumpError(`goroutine dump line ${i + 1}: ${reason}: ${JSON.stringify(shown)}`);
    };
    if (expectFileLine) {
      if (!line.startsWith('\t')) throw fail('expected a tab-indented file:line after the function line');
      expectFileLine = false;
      continue;
    }
    if (line.trim() === '') {
      current = undefined;
      continue;
    }
    const header = HEADER.exec(line);
    if (header !== null) {
      const [, id = '', bracket = ''] = header;
      const parts = bracket.split(', ');
      const g: ParsedGoroutine = { id: Number(id), state: parts[0] ?? '', functions: [] };
      for (const part of parts.slice(1)) {
        const minutes = /^(\d+) minutes?$/.exec(part);
        if (minutes !== null) g.waitMinutes = Number(minutes[1]);
      }
      goroutines.push(g);
      current = g;
      continue;
    }
    if (current === undefined) throw fail(goroutines.length === 0 ? 'not a goroutine dump (expected "goroutine N [state]:")' : 'a frame outside any goroutine');
    if (line.startsWith('\t')) throw fail('a file line without its function line');
    if (ELIDED.test(line)) continue;
    const created = CREATED_BY.exec(line);
    if (created !== null) current.createdBy = created[1] ?? '';
    else current.functions.push(functionName(line));
    expectFileLine = true;
  }
  if (expectFileLine) throw new GoroutineDumpError(`goroutine dump line ${lines.length}: the dump ends before the last frame's file line`);
  if (goroutines.length === 0) throw new GoroutineDumpError('goroutine dump: no goroutines (empty body)');
  return goroutines;
}

/** The innermost CRI client method a goroutine is inside, e.g. "ListPodSandbox". */
function criMethod(g: GoroutineInfo): string | undefined {
  for (const fn of g.functions) {
    const m = CRI_CLIENT.exec(fn);
    if (m !== null) return m[1];
  }
  return undefined;
}

function relistBlockedIn(g: GoroutineInfo, inRelist: boolean): string {
  const method = criMethod(g);
  if (method !== undefined) return method;
  if (g.state.startsWith('chan send')) return 'chan send';
  // The runtime's own frames (gopark, selectgo) are hidden in debug=2 dumps but skipped here in case.
  const innermost = g.functions.find((fn) => !fn.startsWith('runtime.'));
  if (!inRelist && innermost !== undefined && IDLE_FRAME.test(innermost)) return 'idle';
  return 'other';
}

export function summarizeGoroutineDump(text: string): GoroutineSummary {
  const goroutines = parseGoroutineDump(text);
  const summary: GoroutineSummary = { total: goroutines.length, criBlocked: [] };

  // Mid-relist the stack holds Relist; between relists it only shows wait.Until, started by GenericPLEG.Start.
  const inRelist = goroutines.find((g) => g.functions.some((fn) => RELIST.test(fn)));
  const relist = inRelist ?? goroutines.find((g) => g.createdBy !== undefined && PLEG_START.test(g.createdBy));
  if (relist !== undefined) {
    summary.relist = { id: relist.id, state: relist.state, blockedIn: relistBlockedIn(relist, relist === inRelist) };
    if (relist.waitMinutes !== undefined) summary.relist.waitMinutes = relist.waitMinutes;
  }

  const byMethod = new Map<string, { method: string; count: number; maxWaitMinutes?: number }>();
  for (const g of goroutines) {
    const method = criMethod(g);
    if (method === undefined) continue;
    let entry = byMethod.get(method);
    if (entry === undefined) {
      entry = { method, count: 0 };
      byMethod.set(method, entry);
    }
    entry.count++;
    if (g.waitMinutes !== undefined) entry.maxWaitMinutes = Math.max(entry.maxWaitMinutes ?? 0, g.waitMinutes);
  }
  summary.criBlocked = [...byMethod.values()].sort((a, b) => b.count - a.count || a.method.localeCompare(b.method));
  return summary;
}
