// Lines the log-scanner property tests draw from: every line of the log fixtures (all formats and
// journald prefixes), and the real kubelet 1.32's lines that hold the messages the reader looks for.
import { readdirSync, readFileSync } from 'node:fs';

const dir = new URL('../fixtures/logs/', import.meta.url);

export const FIXTURE_LINES = readdirSync(dir)
  .filter((f) => f.endsWith('.log'))
  .flatMap((f) => readFileSync(new URL(f, dir), 'utf8').split(/\r?\n/u))
  .filter((l) => l !== '');

export const REAL_LINES = readFileSync(new URL('../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => /PLEG|Skipping|runtime|Ready|ousekeeping|Version|version/u.test(l));
