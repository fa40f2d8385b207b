// The activation figure from inside the real extension host (bench/activationHost.mjs). The esbuild
// banner of dist/extension.js stores performance.now() as the bundle's first statement; activate() marks
// each step and calls reportActivationTime last. Only when PLEG_DOCTOR_ACTIVATION_PROBE names a file is
// anything written: one JSON line per activation, appended, so a bench can count fresh windows.

import { appendFileSync } from 'node:fs';

/** Set by the banner esbuild.mjs puts at the top of dist/extension.js. */
export const ACTIVATION_START_GLOBAL = '__plegDoctorActivationStart';

const marks: Array<[string, number]> = [];

/** The step names the figure is computed from: the bundle evaluated, and activate() called. */
export const EVALUATED = 'evaluated';
export const ACTIVATE_CALLED = 'activate called';

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** Notes the time a step of activation ended (cheap: one array push). */
export function markActivation(step: string): void {
  marks.push([step, performance.now()]);
}

export function reportActivationTime(env: NodeJS.ProcessEnv = process.env): void {
  const end = performance.now();
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
  const evaluated = taken.find(([step]) => step === EVALUATED)?.[1];
  const activateStart = taken.find(([step]) => step === ACTIVATE_CALLED)?.[1];
  const own = evaluated !== undefined && activateStart !== undefined ? { requireMs: round(evaluated - start), activateMs: round(end - activateStart), hostGapMs: round(activateStart - evaluated) } : {};
  const ms = own.requireMs !== undefined && own.activateMs !== undefined ? own.requireMs + own.activateMs : end - start;
  appendFileSync(file, `${JSON.stringify({ ms, wallMs: round(end - start), ...own, steps, pid: process.pid, node: process.version })}\n`);
}
