// Reads a Chromium trace for the main-thread time each live update of the timeline webview costs. The
// script's own time (message handler, animation frame) is only part of a frame: the frame's commit then
// rasterizes the canvases' drawing on the same thread when the GPU is off (as in this bench and in
// code-server's headless Chromium), and that was 2–3 times the script time for a day in view. So an
// update's cost here is every main-thread task between the page's `update-N-start` and `update-N-end`
// marks, clipped to them: script, style, layout, paint, commit, and any garbage collection in between.

/** One trace event as Chromium writes it (only the fields read here). */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread time: the part of `dur` the thread was on a core. */
  tdur?: number;
  args?: { name?: string };
}

export interface UpdateCost {
  /** Main-thread time of the tasks within the update's marks (ms), waits for a core included. */
  busyMs: number;
  /** The same tasks' thread time (ms): the work itself, what a machine with a free core would wait. */
  cpuMs: number;
  /** The longest of those tasks (ms): the frame the redraw happened in, usually. */
  longestTaskMs: number;
}

/** Per update mark pair `update-<i>-start` / `update-<i>-end`, in order of i. */
export function updateCosts(trace: Buffer | string): UpdateCost[] {
  const parsed = JSON.parse(trace.toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  if (mains.size === 0) throw new Error('the trace names no renderer main thread (CrRendererMain)');
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && mains.has(`${e.pid}:${e.tid}`));
  const marks = new Map<string, number>();
  for (const e of events) if (/^update-\d+-(start|end)$/u.test(e.name) && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b')) marks.set(e.name, e.ts);
  const costs: UpdateCost[] = [];
  for (let i = 0; marks.has(`update-${i}-start`); i++) {
    const from = marks.get(`update-${i}-start`)!;
    const to = marks.get(`update-${i}-end`);
    if (to === undefined) throw new Error(`the trace has update-${i}-start but no update-${i}-end mark`);
    let busy = 0;
    let cpu = 0;
    let longest = 0;
    for (const t of tasks) {
      const overlap = Math.min(to, t.ts + (t.dur ?? 0)) - Math.max(from, t.ts);
      if (overlap <= 0) continue;
      busy += overlap;
      // A task cut by a mark counts its thread time in proportion (tasks rarely straddle one).
      cpu += t.dur !== undefined && t.dur > 0 ? ((t.tdur ?? t.dur) * overlap) / t.dur : 0;
      longest = Math.max(longest, overlap);
    }
    // An update always runs its handler and a frame: nothing found means the trace lacks the tasks.
    if (busy === 0) throw new Error(`no renderer main-thread task between the marks of update ${i} (is the "toplevel" category traced?)`);
    costs.push({ busyMs: busy / 1000, cpuMs: cpu / 1000, longestTaskMs: longest / 1000 });
  }
  if (costs.length === 0) throw new Error('the trace holds no update-N-start marks (is blink.user_timing traced?)');
  return costs;
}
