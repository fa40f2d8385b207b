// The real node stack (test/support/node-stack.sh: sshd on loopback, containerd, busybox pods) as the e2e
// sees it: reuse a healthy stack, otherwise start one and remember that we did, so that only a stack this
// run started is taken down (other engineers' and the integration project's stacks are left alone).
// Also the facts the check compares the UI against, read independently of the extension: the host key's
// fingerprint (ssh-keygen) and the pod count (ctr on the CRI socket).
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './tools.mjs';
import { run } from './processes.mjs';
import { parseKeyValueLines } from '../../support/stackText.mjs';

const SCRIPT = join(REPO, 'test/support/node-stack.sh');
export const NODE_STACK_DIR = process.env.NODE_STACK_DIR ?? join(REPO, '.node-stack');

/** KEY=VALUE lines, as node-stack.sh prints them and keeps them in $NODE_STACK_DIR/env. */
export function parseStackEnv(text) {
  const env = parseKeyValueLines(text);
  for (const key of ['SSH_HOST', 'SSH_PORT', 'SSH_USER', 'SSH_KEY', 'SSH_HOST_KEY_PUB', 'CRI_SOCKET']) {
    if (!env[key]) throw new Error(`node-stack.sh printed no ${key}: run bash test/support/node-stack.sh down && bash test/support/node-stack.sh up`);
  }
  return env;
}

function stack(verb, args = [], timeoutMs = 180_000) {
  return run('bash', [SCRIPT, verb, ...args], { env: { ...process.env, NODE_STACK_DIR }, timeoutMs });
}

/**
 * A healthy stack's env. Starts one with `pods` pods when none is up (needs root); `startedHere` tells
 * the caller whether it owns the teardown.
 */
export async function ensureNodeStack({ pods = 3, log }) {
  try {
    const { stdout } = await stack('status', [], 30_000);
    return { env: parseStackEnv(stdout), startedHere: false };
  } catch {
    // not up (status exits 1): start it below
  }
  if (process.getuid?.() !== 0) throw new Error('the node stack is not up and starting it needs root: sudo bash test/support/node-stack.sh up --pods 3');
  log(`node stack: starting it (node-stack.sh up --pods ${pods})`);
  try {
    const { stdout, stderr } = await stack('up', ['--pods', String(pods)]);
    // Between our status and our up somebody else may have started it: up then reuses theirs (and says so),
    // and it is theirs to take down.
    return { env: parseStackEnv(stdout), startedHere: !/reusing it/.test(stderr) };
  } catch (err) {
    // A half-started stack is ours to clean; up itself leaves it for inspection.
    await stack('down').catch(() => undefined);
    throw err;
  }
}

/** `down` then `check` of a stack this run started; resolves with check's verdict, rejects with the leftovers. */
export async function tearDownNodeStack() {
  await stack('down');
  try {
    await stack('check', [], 60_000);
  } catch (err) {
    throw new Error(`node-stack.sh check after down: ${err.message}`, { cause: err });
  }
}

/** `ssh-keygen -lf` of the host's public key: { bits, fingerprint: 'SHA256:…', type: 'ED25519' }. */
export async function hostKeyFingerprint(pubFile) {
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', pubFile], { timeoutMs: 10_000 });
  const m = /^(\d+)\s+(SHA256:\S+)\s.*\((\w+)\)\s*$/.exec(stdout.trim());
  if (!m) throw new Error(`cannot parse ssh-keygen -lf ${pubFile}: "${stdout.trim()}"`);
  return { bits: Number(m[1]), fingerprint: m[2], type: m[3] };
}

/**
 * A passphrase-protected copy of the stack's client key: same key pair, so the stack's authorized_keys
 * accepts it, but the extension has to ask for the passphrase.
 */
export async function encryptedKeyCopy(env, dir, passphrase) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'node_stack_ed25519');
  copyFileSync(env.SSH_KEY, file);
  chmodSync(file, 0o600);
  await run('ssh-keygen', ['-q', '-p', '-P', '', '-N', passphrase, '-f', file], { timeoutMs: 20_000 });
  // Prove it is really locked: without the passphrase ssh-keygen must fail to derive the public key.
  const locked = await run('ssh-keygen', ['-y', '-P', '', '-f', file], { timeoutMs: 10_000 }).then(() => false, () => true);
  if (!locked) throw new Error(`ssh-keygen -p did not encrypt ${file}`);
  return file;
}

/**
 * Pod sandboxes and containers in the runtime, counted through containerd's own client on the CRI
 * socket (the CRI plugin labels its containerd containers with io.cri-containerd.kind).
 */
export async function countRuntimeObjects(env) {
  const ids = async (kind) => {
    const { stdout } = await run('ctr', ['-a', env.CRI_SOCKET, '-n', 'k8s.io', 'containers', 'ls', '-q', `labels."io.cri-containerd.kind"==${kind}`], { timeoutMs: 15_000 });
    return stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '').sort();
  };
  const [sandboxIds, containerIds] = await Promise.all([ids('sandbox'), ids('container')]);
  return { sandboxes: sandboxIds.length, containers: containerIds.length, sandboxIds, containerIds };
}
