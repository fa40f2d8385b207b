// Process plumbing for the e2e and the demo: free loopback ports, process-group teardown, and a /proc
// scan proving nothing we started is left running.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export { freePort } from '../../support/stackText.mjs';

/** pid → { pgrp, state, cmdline } for every live process, read from /proc. */
export function listProcesses() {
  const out = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may contain spaces and parentheses: parse after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      out.set(Number(entry), { state: rest[0], pgrp: Number(rest[2]), cmdline });
    } catch {
      // The process exited between readdir and read: it is gone, which is what we want.
    }
  }
  return out;
}

/** Live (non-zombie) members of a process group. */
export function groupMembers(pgrp) {
  return [...listProcesses()].filter(([, p]) => p.pgrp === pgrp && p.state !== 'Z').map(([pid]) => pid);
}

/** Live processes whose command line mentions `needle` (e.g. the per-run dir), excluding ourselves. */
export function processesMentioning(needle) {
  return [...listProcesses()]
    .filter(([pid, p]) => pid !== process.pid && p.state !== 'Z' && p.cmdline.includes(needle))
    .map(([pid, p]) => ({ pid, cmdline: p.cmdline.slice(0, 160) }));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function signalGroup(pgrp, signal) {
  try {
    process.kill(-pgrp, signal);
    return true;
  } catch (err) {
    if (err.code === 'ESRCH') return false;
    throw err;
  }
}

/**
 * Stops a child that leads its own process group (spawned with detached: true): SIGTERM to the group,
 * SIGKILL after `graceMs`, then polls /proc until no member is left (recipe section 10).
 * Returns the pids that had to be SIGKILLed (empty when SIGTERM sufficed).
 */
export async function stopGroup(child, { graceMs = 10_000, settleMs = 5_000 } = {}) {
  const pgrp = child.pid;
  if (pgrp === undefined) return [];
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
  signalGroup(pgrp, 'SIGTERM');
  // The grace timer is cleared once the group exits: a pending one would keep the caller's event loop (a
  // vitest worker, which must exit after its tests) alive for the rest of graceMs.
  let grace;
  await Promise.race([exited, new Promise((r) => (grace = setTimeout(r, graceMs)))]);
  clearTimeout(grace);
  let killed = [];
  if (child.exitCode === null && child.signalCode === null) {
    killed = groupMembers(pgrp);
    signalGroup(pgrp, 'SIGKILL');
  }
  // The leader may be gone while its children (extension host, watcher, pty host) still exit.
  const deadline = Date.now() + settleMs;
  for (;;) {
    const left = groupMembers(pgrp);
    if (left.length === 0) return killed;
    if (Date.now() > deadline) {
      killed = [...new Set([...killed, ...left])];
      signalGroup(pgrp, 'SIGKILL');
      if (Date.now() > deadline + 5_000) throw new Error(`process group ${pgrp} still has members after SIGKILL: ${left.join(', ')}`);
    }
    await sleep(100);
  }
}

/** Runs a command to completion with a deadline; rejects with its output on failure. */
export function run(cmd, args, { env, cwd, timeoutMs = 600_000 } = {}) {
  return new Promise((resolveRun, reject) => {
    execFile(cmd, args, { env, cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`${cmd} ${args.join(' ')} failed (${err.killed ? `timed out after ${timeoutMs} ms` : `exit ${err.code}`}):\n${stdout}\n${stderr}`));
      } else {
        resolveRun({ stdout, stderr });
      }
    });
  });
}
