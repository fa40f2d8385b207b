// `pleg-doctor snapshot --host H …`: connect to one node over SSH (host key verified), pick how to speak
// CRI there, take one kubelet-style runtime snapshot and print it as JSON with every call's timing.

import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../core/util/logger';
import { TransportSelectionError, type TransportKind } from '../../infra/cri/transports/select';
import { collectNodeSnapshot, SudoCheckError } from '../../infra/nodeSnapshot/collectNodeSnapshot';
import { HostKeyChangedError, HostKeyRevokedError, HostKeyUnknownError, SshConfigError, SshError } from '../../infra/ssh/errors';
import { SshPool } from '../../infra/ssh/pool';
import { readSshConfigFile, resolveConnectionPlan } from '../../infra/ssh/sshConfig';
import { defaultIdentityFiles } from '../../infra/ssh/auth';
import { CliUsageError } from '../io';
import type { CliCommand, CliIo } from '../io';

export const SNAPSHOT_USAGE = `Usage: pleg-doctor snapshot --host HOST [options]

Connects to a node over SSH, selects a CRI transport and prints one runtime snapshot as JSON (Version,
Status, ListPodSandbox, ListContainers, then PodSandboxStatus/ContainerStatus per item, each timed).

Options:
  --host HOST              address or ~/.ssh/config Host alias (required)
  --port PORT              SSH port (default: ssh config, else 22)
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
  -h, --help               show this help

Exit codes: 0 snapshot taken and every call answered; 1 connection, transport or runtime failure (a
snapshot with failed calls is still printed); 2 bad options, or a host key that is unknown, changed or
revoked.
`;

type CliTransport = 'auto' | 'forward' | 'exec' | 'crictl';

interface SnapshotArgs {
  host: string;
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

const transportKinds: Record<CliTransport, 'auto' | TransportKind> = {
  auto: 'auto',
  forward: 'unixSocket',
  exec: 'execRelay',
  crictl: 'crictl',
};

function positiveInt(name: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw new CliUsageError(`snapshot: ${name} must be an integer from 1 to ${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

export function parseSnapshotArgs(argv: readonly string[]): SnapshotArgs | 'help' {
  let host: string | undefined;
  const partial: Omit<SnapshotArgs, 'host'> = { identities: [], transport: 'auto', sudo: false, probes: false, acceptHostKeys: [], timeoutMs: 5_000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new CliUsageError(`snapshot: ${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case '-h':
      case '--help':
        return 'help';
      case '--host':
        host = value();
        break;
      case '--port':
        partial.port = positiveInt('--port', value(), 65535);
        break;
      case '--user':
        partial.user = value();
        break;
      case '--identity':
        partial.identities.push(value());
        break;
      case '--jump':
        partial.jump = value();
        break;
      case '--ssh-config':
        partial.sshConfig = value();
        break;
      case '--socket':
        partial.socket = value();
        break;
      case '--transport': {
        const kind = value();
        if (!(kind in transportKinds)) throw new CliUsageError(`snapshot: --transport must be auto, forward, exec or crictl, got ${JSON.stringify(kind)}`);
        partial.transport = kind as CliTransport;
        break;
      }
      case '--sudo':
        partial.sudo = true;
        break;
      case '--probes':
        partial.probes = true;
        break;
      case '--known-hosts':
        partial.knownHosts = value();
        break;
      case '--accept-host-key': {
        const fp = value();
        if (!/^SHA256:[A-Za-z0-9+/]{43}$/.test(fp)) throw new CliUsageError(`snapshot: --accept-host-key wants a SHA256:… fingerprint as ssh-keygen -l prints it, got ${JSON.stringify(fp)}`);
        partial.acceptHostKeys.push(fp);
        break;
      }
      case '--timeout':
        partial.timeoutMs = positiveInt('--timeout', value(), 3_600_000);
        break;
      default:
        throw new CliUsageError(`snapshot: unknown option ${JSON.stringify(arg)} (see pleg-doctor snapshot --help)`);
    }
  }
  if (host === undefined || host === '') throw new CliUsageError('snapshot: --host is required');
  return { host, ...partial };
}

function stderrLogger(io: CliIo): Logger {
  const line = (level: string, message: string | Error): void => {
    io.stderr.write(`pleg-doctor: ${level}: ${message instanceof Error ? message.message : message}\n`);
  };
  return {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => line('warning', m),
    error: (m) => line('error', m),
  };
}

function hostKeyAdvice(error: HostKeyUnknownError): string {
  const { host, port, keyType, fingerprint } = error.facts;
  return (
    `pleg-doctor: the host key of ${host}:${port} is not known: ${keyType} ${fingerprint}\n` +
    `Check it out of band (on the node: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub), then run again with\n` +
    `  --accept-host-key ${fingerprint}\n` +
    `The key is then remembered in PLEG Doctor's known_hosts file.\n`
  );
}

export const snapshotCommand: CliCommand = async (argv, io) => {
  const args = parseSnapshotArgs(argv);
  if (args === 'help') {
    io.stdout.write(SNAPSHOT_USAGE);
    return 0;
  }
  const home = io.env['HOME'] ?? homedir();
  const localUser = io.env['USER'] ?? userInfo().username;
  const logger = stderrLogger(io);
  const configDir = io.env['XDG_CONFIG_HOME'] ?? join(home, '.config');
  const ownKnownHosts = args.knownHosts ?? join(configDir, 'pleg-doctor', 'known_hosts');

  let plan;
  try {
    const configText = await readSshConfigFile(args.sshConfig ?? join(home, '.ssh', 'config'));
    plan = resolveConnectionPlan(
      {
        host: args.host,
        ...(args.user !== undefined ? { user: args.user } : {}),
        ...(args.port !== undefined ? { port: args.port } : {}),
        ...(args.jump !== undefined ? { jumpHost: args.jump } : {}),
        identityFiles: args.identities,
      },
      { configText, homeDir: home, localUser },
    );
  } catch (error) {
    if (error instanceof SshConfigError) throw new CliUsageError(`snapshot: ${error.message}`);
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
    // A command line cannot ask: only a fingerprint the user passed explicitly is accepted.
    confirmUnknownHost: (question) => Promise.resolve(args.acceptHostKeys.includes(question.fingerprint)),
    auth: { ...(io.env['SSH_AUTH_SOCK'] !== undefined ? { agentSocket: io.env['SSH_AUTH_SOCK'] } : {}) },
    connectTimeoutMs: Math.max(args.timeoutMs, 10_000),
    logger,
  });
  try {
    const report = await collectNodeSnapshot(pool.get(plan), plan, {
      ...(args.socket !== undefined ? { endpoint: args.socket } : {}),
      transport: transportKinds[args.transport],
      deadlineMs: args.timeoutMs,
      sudo: args.sudo,
      probes: args.probes,
      logger,
      signal: io.signal,
    });
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return report.snapshot.errors.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof HostKeyUnknownError) {
      io.stderr.write(hostKeyAdvice(error));
      return 2;
    }
    if (error instanceof HostKeyChangedError || error instanceof HostKeyRevokedError) {
      io.stderr.write(`pleg-doctor: ${error.message}\n`);
      return 2;
    }
    if (error instanceof SudoCheckError) {
      io.stderr.write(`pleg-doctor: --sudo: ${error.message}\n`);
      return 1;
    }
    if (error instanceof SshError || error instanceof TransportSelectionError) {
      io.stderr.write(`pleg-doctor: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    pool.dispose();
  }
};
