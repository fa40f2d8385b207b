// Evidence folders as a copy leaves them: the files of a real capture written into a new folder, every
// modification time set to one instant days later (what cp, unzip without timestamps or git clone do).

import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeObject } from './diagnoseBuilders';

export const REAL_1_32 = new URL('../fixtures/real-kubelet-1.32/', import.meta.url);
export const fixture132 = (name: string): string => readFileSync(new URL(name, REAL_1_32), 'utf8');
/** The main port's section of a healthz recording (the files hold three ports' answers). */
export const healthz132 = (phase: string): string => (fixture132(`healthz-${phase}.txt`).split('# http_code')[0] ?? '').split('\n').filter((l) => !l.startsWith('#')).join('\n');

/** A week after the recording: when the folder was copied. */
export const COPIED_AT = new Date('2026-11-29T12:00:00Z');

const made: string[] = [];

/** Writes `files` into a new folder and gives each the same modification time. */
export function copiedFolder(files: Record<string, string>, mtime: Date = COPIED_AT): string {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-copied-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    utimesSync(join(dir, name), mtime, mtime);
  }
  return dir;
}

export function removeCopiedFolders(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/*
 * The recording's kubelet ran standalone (no API server), so it has no Node object. These two are derived
 * for it: what its status would have read at the healthy capture (02:59:49Z; started 02:59:16Z) and at the
 * frozen one (03:05:38–44Z): its Ready message is the kubelet's own "Skipping pod synchronization" error
 * logged at 03:05:41Z, posted then, and NotReady since its first PLEG line (03:03:46Z).
 */
export const healthyNode132 = (): string =>
  JSON.stringify(nodeObject({ name: 'pleg-node', heartbeat: '2026-11-22T02:59:45Z', since: '2026-11-22T02:59:20Z', kubeletVersion: 'v1.32.10-kubeedge1', runtime: 'containerd://1.6.20' }));

export const frozenNode132 = (): string =>
  JSON.stringify(
    nodeObject({
      name: 'pleg-node',
      ready: 'False',
      message: 'container runtime is down, PLEG is not healthy: pleg was last seen active 4m58.158108819s ago; threshold is 3m0s',
      since: '2026-11-22T03:03:46Z',
      heartbeat: '2026-11-22T03:05:41Z',
      kubeletVersion: 'v1.32.10-kubeedge1',
      runtime: 'containerd://1.6.20',
    }),
  );

export function healthyFiles(withLog: boolean): Record<string, string> {
  const files: Record<string, string> = {
    'node.json': healthyNode132(),
    'metrics.txt': fixture132('metrics-healthy.txt'),
    'configz.json': fixture132('configz.json'),
    'healthz.txt': healthz132('healthy'),
    'goroutines.txt': fixture132('goroutines-healthy.txt'),
  };
  // What an export at the healthy capture holds: the log up to then (02:59:51, two seconds after the
  // kubelet's access-log line for this GET /metrics). The recording's log goes on into the freeze, which
  // a bundle captured at 02:59:49 cannot contain.
  if (withLog) files['kubelet.log'] = `${fixture132('kubelet-runtime-stopped.log').split('\n').slice(0, HEALTHY_LOG_LINES).join('\n')}\n`;
  return files;
}

const HEALTHY_LOG_LINES = 1500;

export function frozenFiles(withLog: boolean): Record<string, string> {
  const files: Record<string, string> = {
    'node.json': frozenNode132(),
    'metrics.txt': fixture132('metrics-stopped-final.txt'),
    'configz.json': fixture132('configz.json'),
    'healthz.txt': healthz132('stopped-final'),
    'goroutines.txt': fixture132('goroutines-stopped-final.txt'),
  };
  if (withLog) files['kubelet.log'] = fixture132('kubelet-runtime-stopped.log');
  return files;
}
