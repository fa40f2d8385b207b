// The activation figure from inside the real extension host (bench/activationHost.mjs). The esbuild
// banner of dist/extension.js stores performance.now() as the bundle's first statement; activate() marks
// each step and calls reportActivationTime last. Only when PLEG_DOCTOR_ACTIVATION_PROBE names a file is
// anything written: one JSON line per activation, appended, so a bench can count fresh windows.

import { appendFileSync } from 'node:fs';

/** Set by the banner esbuild.mjs puts at the top of dist/extension.js. */
export const ACTIVATION_START_GLOBAL = '__plegDoctorActivationStart';
/** The same banner's CPU time of the extension host's thread at that moment, in µs. */
export const ACTIVATION_START_CPU_GLOBAL = '__plegDoctorActivationCpu';

/**
 * CPU time of this thread in µs (Node ≥ 23.9: process.threadCpuUsage; the whole process before). On the
 * 2-core bench machine the extension host's thread waits for a core while the workbench renders, so
 * wall time mixes the extension's cost with the machine's; the thread's CPU time is the extension's alone.
 * The banner inlines the same expression (esbuild.mjs).
 */
export const THREAD_CPU_EXPRESSION = '((u)=>u.user+u.system)(process.threadCpuUsage?process.threadCpuUsage():process.cpuUsage())';

function threadCpuUs(): number {
  const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  const usage = typeof threadCpuUsage === 'function' ? threadCpuUsage.call(process) : process.cpuUsage();
  return usage.user + usage.system;
}

/** Step, wall time (ms), thread CPU time (µs). */
const marks: Array<[string, number, number]> = [];

/** The step names the figure is computed from: the bundle evaluated, and activate() called. */
export const EVALUATED = 'evaluated';
export const ACTIVATE_CALLED = 'activate called';

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** Notes the time a step of activation ended, wall and CPU (cheap: two clock reads and a push). */
export function markActivation(step: string): void {
  marks.push([step, performance.now(), threadCpuUs()]);
}

export function reportActivationTime(env: NodeJS.ProcessEnv = process.env): void {
  const end = performance.now();
  const endCpu = threadCpuUs();
  const file = env['PLEG_DOCTOR_ACTIVATION_PROBE'];
  if (file === undefined || file === '') return;
  const start = (globalThis as Record<string, unknown>)[ACTIVATION_START_GLOBAL];
  if (typeof start !== 'number') {
    appendFileSync(file, `${JSON.stringify({ error: 'no start mark: dist/extension.js was built without the banner' })}\n`);
    return;
  }
  // Each step's own duration: from the previous mark (the first from the banner).
  const taken = marks.splice(0);
  const steps: Record<string, number> = {};
  let previous = start;
  for (const [step, at] of taken) {
    steps[step] = round(at - previous);
    previous = at;
  }
  // The extension's own time: evaluating the bundle, then activate() itself. Between the two the host
  // builds the ExtensionContext (storage, secrets: round trips to the workbench), which is not ours.
  const evaluated = taken.find(([step]) => step === EVALUATED);
  const activateStart = taken.find(([step]) => step === ACTIVATE_CALLED);
  const startCpu = (globalThis as Record<string, unknown>)[ACTIVATION_START_CPU_GLOBAL];
  const own: { requireMs?: number; activateMs?: number; hostGapMs?: number; cpuMs?: number } =
    evaluated !== undefined && activateStart !== undefined
      ? {
          requireMs: round(evaluated[1] - start),
          activateMs: round(end - activateStart[1]),
          hostGapMs: round(activateStart[1] - evaluated[1]),
          ...(typeof startCpu === 'number' ? { cpuMs: round((evaluated[2] - startCpu + endCpu - activateStart[2]) / 1000) } : {}),
        }
      : {};
  const ms = own.requireMs !== undefined && own.activateMs !== undefined ? own.requireMs + own.activateMs : end - start;
  appendFileSync(file, `${JSON.stringify({ ms, wallMs: round(end - start), ...own, steps, pid: process.pid, node: process.version })}\n`);
}
