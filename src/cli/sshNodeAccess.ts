// The SSH options `snapshot` and `diagnose` share (--host, --port, --user, --identity, --jump,
// --ssh-config, --socket, --transport, --sudo, --probes, --known-hosts, --accept-host-key, --timeout),
// how they are parsed, and how they become a verified connection and one collectNodeSnapshot call. A
// command line cannot ask about an unknown host key: only a fingerprint the user passed is accepted.

import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../core/util/logger';
import type { TransportKind } from '../infra/cri/transports/select';
import { collectNodeSnapshot } from '../infra/nodeSnapshot/collectNodeSnapshot';
import type { NodeSnapshotReport } from '../infra/nodeSnapshot/collectNodeSnapshot';
import { defaultIdentityFiles } from '../infra/ssh/auth';
import { HostKeyUnknownError, SshConfigError } from '../infra/ssh/errors';
import { SshPool } from '../infra/ssh/pool';
import { readSshConfigFile, resolveConnectionPlan, type ConnectionPlan } from '../infra/ssh/sshConfig';
import type { CliValues } from './args';
import { CliUsageError } from './io';
import type { CliIo } from './io';

export const SSH_OPTIONS_HELP = `  --port PORT              SSH port (default: ssh config, else 22)
  --user USER              SSH user (default: ssh config, else the local user)
  --identity KEY           private key file (repeatable; tried after ssh-agent)
  --jump SPEC              ProxyJump, e.g. ops@bastion:22 or a,b (default: ssh config)
  --ssh-config FILE        ssh config to read (default ~/.ssh/config)
  --socket PATH            CRI socket or unix:// endpoint (default: detected on the node)
  --transport KIND         auto | forward | exec | crictl (default auto)
  --sudo                   check first that non-interactive \`sudo -n\` is allowed on the node
  --probes                 also run the read-only node probes (process state, load, D-state tasks, versions)
  --known-hosts FILE       PLEG Doctor's own known_hosts (read, and where accepted keys are added)
  --accept-host-key FP     accept an unknown host key with this SHA256:… fingerprint (repeatable)
  --timeout MS             per-call deadline in milliseconds (default 5000)
`;

export type CliTransport = 'auto' | 'forward' | 'exec' | 'crictl';

export interface SshArgs {
  host?: string;
  port?: number;
  user?: string;
  identities: string[];
  jump?: string;
  sshConfig?: string;
  socket?: string;
  transport: CliTransport;
  sudo: boolean;
  probes: boolean;
  knownHosts?: string;
  acceptHostKeys: string[];
  timeoutMs: number;
}

export const transportKinds: Record<CliTransport, 'auto' | TransportKind> = {
  auto: 'auto',
  forward: 'unixSocket',
  exec: 'execRelay',
  crictl: 'crictl',
};

export function defaultSshArgs(): SshArgs {
  return { identities: [], transport: 'auto', sudo: false, probes: false, acceptHostKeys: [], timeoutMs: 5_000 };
}

export function positiveInt(command: string, name: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw new CliUsageError(`${command}: ${name} must be an integer from 1 to ${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** The SSH options as parseCommandArgs takes them (src/cli/args.ts); spread into a command's own options. */
export const SSH_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  user: { type: 'string' },
  identity: { type: 'string', multiple: true },
  jump: { type: 'string' },
  'ssh-config': { type: 'string' },
  socket: { type: 'string' },
  transport: { type: 'string' },
  sudo: { type: 'boolean' },
  probes: { type: 'boolean' },
  'known-hosts': { type: 'string' },
  'accept-host-key': { type: 'string', multiple: true },
  timeout: { type: 'string' },
} as const;

/** The SSH options given on the command line, as `--name`, in the order they first appear. */
export function sshOptionsGiven(values: CliValues<typeof SSH_OPTIONS>): string[] {
  return Object.keys(values)
    .filter((k) => Object.hasOwn(SSH_OPTIONS, k))
    .map((k) => `--${k}`);
}

/** Validates the SSH options of a parsed command line into SshArgs, naming the bad option. */
export function sshArgsFrom(command: string, values: CliValues<typeof SSH_OPTIONS>): SshArgs {
  const args = defaultSshArgs();
  if (values.host !== undefined) args.host = values.host;
  if (values.port !== undefined) args.port = positiveInt(command, '--port', values.port, 65535);
  if (values.user !== undefined) args.user = values.user;
  args.identities.push(...(values.identity ?? []));
  if (values.jump !== undefined) args.jump = values.jump;
  if (values['ssh-config'] !== undefined) args.sshConfig = values['ssh-config'];
  if (values.socket !== undefined) args.socket = values.socket;
  if (values.transport !== undefined) {
    const kind = values.transport;
    if (!Object.hasOwn(transportKinds, kind)) throw new CliUsageError(`${command}: --transport must be auto, forward, exec or crictl, got ${JSON.stringify(kind)}`);
    args.transport = kind as CliTransport;
  }
  args.sudo = values.sudo === true;
  args.probes = values.probes === true;
  if (values['known-hosts'] !== undefined) args.knownHosts = values['known-hosts'];
  for (const fp of values['accept-host-key'] ?? []) {
    if (!/^SHA256:[A-Za-z0-9+/]{43}$/.test(fp)) throw new CliUsageError(`${command}: --accept-host-key wants a SHA256:… fingerprint as ssh-keygen -l prints it, got ${JSON.stringify(fp)}`);
    args.acceptHostKeys.push(fp);
  }
  if (values.timeout !== undefined) args.timeoutMs = positiveInt(command, '--timeout', values.timeout, 3_600_000);
  return args;
}

export function hostKeyAdvice(command: string, error: HostKeyUnknownError): string {
  const { host, port, keyType, fingerprint } = error.facts;
  return (
    `pleg-doctor: ${command}: the host key of ${host}:${port} is not known: ${keyType} ${fingerprint}\n` +
    `Check it out of band (on the node: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub), then run again with\n` +
    `  --accept-host-key ${fingerprint}\n` +
    `The key is then remembered in PLEG Doctor's known_hosts file.\n`
  );
}

/**
 * Resolves the connection plan for `host` (ssh config, jump hosts, identities) and makes the pool that
 * connects along it, with the host-key policy of the command line (only --accept-host-key fingerprints).
 * The caller disposes the pool; `pool.get(plan)` is the node's connection.
 */
export async function openSshPool(command: string, host: string, args: SshArgs, io: CliIo, logger: Logger): Promise<{ pool: SshPool; plan: ConnectionPlan }> {
  const home = io.env['HOME'] ?? homedir();
  const localUser = io.env['USER'] ?? userInfo().username;
  const configDir = io.env['XDG_CONFIG_HOME'] ?? join(home, '.config');
  const ownKnownHosts = args.knownHosts ?? join(configDir, 'pleg-doctor', 'known_hosts');

  let plan;
  try {
    const configText = await readSshConfigFile(args.sshConfig ?? join(home, '.ssh', 'config'));
    plan = resolveConnectionPlan(
      {
        host,
        ...(args.user !== undefined ? { user: args.user } : {}),
        ...(args.port !== undefined ? { port: args.port } : {}),
        ...(args.jump !== undefined ? { jumpHost: args.jump } : {}),
        identityFiles: args.identities,
      },
      { configText, homeDir: home, localUser },
    );
  } catch (error) {
    if (error instanceof SshConfigError) throw new CliUsageError(`${command}: ${error.message}`);
    throw error;
  }
  for (const warning of plan.warnings) logger.warn(warning);
  for (const hop of [...plan.jumps, plan.target]) {
    if (hop.identityFiles.length === 0) hop.identityFiles.push(...defaultIdentityFiles(home));
  }

  const pool = new SshPool({
    knownHosts: {
      readOnly: [join(home, '.ssh', 'known_hosts'), '/etc/ssh/ssh_known_hosts', ...plan.userKnownHostsFiles],
      own: ownKnownHosts,
    },
    confirmUnknownHost: (question) => Promise.resolve(args.acceptHostKeys.includes(question.fingerprint)),
    auth: { ...(io.env['SSH_AUTH_SOCK'] !== undefined ? { agentSocket: io.env['SSH_AUTH_SOCK'] } : {}) },
    connectTimeoutMs: Math.max(args.timeoutMs, 10_000),
    logger,
  });
  return { pool, plan };
}

/** One snapshot on an open pool; a host key it does not know gets the advice on stderr. */
export async function snapshotOnPool(command: string, pool: SshPool, plan: ConnectionPlan, args: SshArgs, io: CliIo, logger: Logger, signal: AbortSignal): Promise<NodeSnapshotReport> {
  try {
    return await collectNodeSnapshot(pool.get(plan), plan, {
      ...(args.socket !== undefined ? { endpoint: args.socket } : {}),
      transport: transportKinds[args.transport],
      deadlineMs: args.timeoutMs,
      sudo: args.sudo,
      probes: args.probes,
      logger,
      signal,
    });
  } catch (error) {
    if (error instanceof HostKeyUnknownError) io.stderr.write(hostKeyAdvice(command, error));
    throw error;
  }
}

/** Opens the pool (openSshPool), takes one snapshot, disposes the pool. */
export async function snapshotOverSsh(command: string, host: string, args: SshArgs, io: CliIo, logger: Logger, signal: AbortSignal): Promise<NodeSnapshotReport> {
  const { pool, plan } = await openSshPool(command, host, args, io, logger);
  try {
    return await snapshotOnPool(command, pool, plan, args, io, logger, signal);
  } finally {
    pool.dispose();
  }
}
