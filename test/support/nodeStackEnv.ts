// The node stack's coordinates for integration tests, read from $NODE_STACK_DIR/env (written by
// `bash test/support/node-stack.sh up`). No stack is an error with the fix in its message, never a skip.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseKeyValueLines } from './stackText.mjs';

export interface NodeStackEnv {
  sshHost: string;
  sshPort: number;
  /** The non-root test user (plegtest). */
  sshUser: string;
  /** Private key accepted for both sshUser and root. */
  sshKey: string;
  sshRootUser: string;
  /** Path of the sshd host public key file ("ssh-ed25519 AAAA… comment"). */
  sshHostKeyPub: string;
  /** A known_hosts file with the `[127.0.0.1]:port` entry for the host key. */
  sshKnownHosts: string;
  criSocket: string;
  containerdPid: number;
  sshdPid: number;
  dir: string;
  podLogDir: string;
  image: string;
  /** Every KEY=VALUE line as written. */
  raw: Record<string, string>;
}

export function nodeStackDir(): string {
  return process.env['NODE_STACK_DIR'] ?? path.resolve(__dirname, '../../.node-stack');
}

export { parseKeyValueLines as parseNodeStackEnv } from './stackText.mjs';

export function readNodeStackEnv(dir = nodeStackDir()): NodeStackEnv {
  const file = path.join(dir, 'env');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new Error(`node stack is not up: run bash test/support/node-stack.sh up (no ${file})`);
  }
  const raw = parseKeyValueLines(text);
  const need = (key: string): string => {
    const value = raw[key];
    if (value === undefined || value === '') throw new Error(`node stack env ${file} lacks ${key}: run bash test/support/node-stack.sh down && bash test/support/node-stack.sh up`);
    return value;
  };
  const env: NodeStackEnv = {
    sshHost: need('SSH_HOST'),
    sshPort: Number(need('SSH_PORT')),
    sshUser: need('SSH_USER'),
    sshKey: need('SSH_KEY'),
    sshRootUser: need('SSH_ROOT_USER'),
    sshHostKeyPub: need('SSH_HOST_KEY_PUB'),
    sshKnownHosts: need('SSH_KNOWN_HOSTS'),
    criSocket: need('CRI_SOCKET'),
    containerdPid: Number(need('CONTAINERD_PID')),
    sshdPid: Number(need('SSHD_PID')),
    dir: need('NODE_STACK_DIR'),
    podLogDir: need('POD_LOG_DIR'),
    image: need('IMAGE'),
    raw,
  };
  if (!fs.existsSync(env.criSocket)) throw new Error(`node stack is not up: run bash test/support/node-stack.sh up (${env.criSocket} is missing)`);
  return env;
}
