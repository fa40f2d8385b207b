// Picks how to speak CRI to a node, automatically, and says why:
//   1. a stream straight to the socket (SSH direct-streamlocal, or a local connect),
//   2. else, when the socket exists but we may not open it (or forwarding is refused), `socat` on the node
//      through an exec channel, with `sudo -n` unless we are root,
//   3. else `crictl -o json` through exec.
// A missing socket and a permission problem look the same over SSH, so a failed stream is diagnosed with
// execs (socketDiagnosis.ts). A runtime that accepts the connection but does not answer in time is not a
// transport problem: the direct transport is kept, and the hang is the finding.

import type { Logger } from '../../../core/util/logger';
import { silentLogger } from '../../../core/util/logger';
import type { RemoteHost } from '../../remote';
import { CriError } from '../criError';
import { detectRuntimeEndpoint, endpointToSocketPath } from '../endpoints';
import { GrpcCode } from '../grpc/status';
import type { CriReader } from '../reader';
import type { SocketDiagnosis } from '../socketDiagnosis';
import { diagnoseSocket } from '../socketDiagnosis';
import { CrictlReader } from './crictl';
import { execRelayClient } from './execRelay';
import { unixSocketClient } from './unixSocket';
import { errorText } from '../../../core/util/errorText';

export type TransportKind = 'unixSocket' | 'execRelay' | 'crictl';

export interface SelectTransportOptions {
  /** Socket path or unix:// endpoint; autodetected when absent. */
  endpoint?: string;
  /** The endpoint the kubelet's /configz reports, if the caller fetched it. */
  configzEndpoint?: string;
  /** 'forward' and 'exec' are the CLI's names for unixSocket and execRelay. */
  transport?: 'auto' | TransportKind | 'forward' | 'exec';
  /** Force `sudo -n` on (or off) for the exec relay and crictl; by default it is used unless `id -u` is 0. */
  sudo?: boolean;
  /** Per-call deadline for the chosen client (default 5 s). */
  deadlineMs?: number;
  /** Deadline of the Version probe and of the diagnostic execs (default 5 s). */
  probeTimeoutMs?: number;
  logger?: Logger;
  signal?: AbortSignal;
}

export interface TransportAttempt {
  kind: TransportKind;
  ok: boolean;
  detail: string;
}

export interface TransportSelection {
  kind: TransportKind;
  client: CriReader;
  endpoint: string;
  socketPath: string;
  reason: string;
  attempts: TransportAttempt[];
  diagnosis?: SocketDiagnosis;
}

export class TransportSelectionError extends Error {
  override readonly name = 'TransportSelectionError';
  constructor(
    message: string,
    readonly attempts: TransportAttempt[],
    readonly diagnosis?: SocketDiagnosis,
  ) {
    super(message);
  }
}

/** Probes with Version. Resolves "ok", "hung" (deadline: the path works, the runtime does not answer) or throws. */
async function probe(client: CriReader, timeoutMs: number, signal?: AbortSignal): Promise<'ok' | 'hung'> {
  try {
    await client.version({ deadlineMs: timeoutMs, ...(signal ? { signal } : {}) });
    return 'ok';
  } catch (error) {
    if (error instanceof CriError && error.code === GrpcCode.DEADLINE_EXCEEDED) return 'hung';
    throw error;
  }
}

/** What a `<tool> --version`-style check found; a check that did not finish says so and is never read as "not installed". */
type CommandCheck = { present: true } | { present: false; detail: string };

async function checkCommand(host: RemoteHost, tool: string, argv: string[], absent: string, timeoutMs: number, signal?: AbortSignal): Promise<CommandCheck> {
  // An exec that throws (connection lost, cancelled, channel refused) tells us nothing about the tool:
  // the real cause goes to the caller instead of a misleading "not installed".
  const result = await host.exec(argv, { timeoutMs, ...(signal ? { signal } : {}) });
  if (result.exitCode === 0) return { present: true };
  const command = `\`${argv.join(' ')}\``;
  if (result.timedOut) return { present: false, detail: `could not check for ${tool}: ${command} did not finish within ${timeoutMs} ms on ${host.description}` };
  const stderr = result.stderr.trim().split('\n').slice(0, 2).join(' ').slice(0, 200);
  const exit = result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit ${result.exitCode}`;
  const why = result.exitCode === 127 ? absent : `${absent} (${command}: ${exit}${stderr !== '' ? `: ${stderr}` : ''})`;
  return { present: false, detail: why };
}

const forwardRefused = 'the SSH server refused to forward the socket (stream-local forwarding disabled?)';

/**
 * OpenSSH answers a refused direct-streamlocal channel with the same "open failed" as a missing socket, so
 * the channel error alone cannot say which; once the socket is known to be there and usable, the failed
 * unixSocket attempt is reworded to name the refusal.
 */
function markForwardRefused(attempts: TransportAttempt[], qualifier: string): void {
  for (const attempt of attempts) {
    if (attempt.kind === 'unixSocket' && !attempt.ok && !attempt.detail.startsWith(forwardRefused)) {
      attempt.detail = `${forwardRefused}${qualifier}; the channel error was: ${attempt.detail}`;
    }
  }
}

export async function selectTransport(host: RemoteHost, options: SelectTransportOptions = {}): Promise<TransportSelection> {
  const logger = options.logger ?? silentLogger;
  const probeMs = options.probeTimeoutMs ?? 5_000;
  const clientOptions = { ...(options.deadlineMs !== undefined ? { defaultDeadlineMs: options.deadlineMs } : {}), logger };
  const signal = options.signal;
  const sig = signal ? { signal } : {};

  let endpoint: string;
  let socketPath: string;
  if (options.endpoint) {
    const path = endpointToSocketPath(options.endpoint);
    if (!path) throw new TransportSelectionError(`not a unix socket endpoint: ${options.endpoint}`, []);
    socketPath = path;
    endpoint = `unix://${path}`;
  } else {
    const detected = await detectRuntimeEndpoint(host, { ...(options.configzEndpoint ? { configzEndpoint: options.configzEndpoint } : {}), timeoutMs: probeMs, ...sig });
    endpoint = detected.endpoint;
    socketPath = detected.socketPath;
    logger.info(`CRI endpoint ${endpoint} (from ${detected.source})`);
  }

  const attempts: TransportAttempt[] = [];
  const wanted: 'auto' | TransportKind = options.transport === 'forward' ? 'unixSocket' : options.transport === 'exec' ? 'execRelay' : (options.transport ?? 'auto');
  const chosen = (kind: TransportKind, client: CriReader, reason: string, diagnosis?: SocketDiagnosis): TransportSelection => {
    if (kind !== 'unixSocket' && diagnosis?.problem === 'accessible') markForwardRefused(attempts, ` (the socket exists and is reachable through ${kind})`);
    attempts.push({ kind, ok: true, detail: reason });
    logger.info(`CRI transport ${kind} for ${host.description}: ${reason}`);
    return { kind, client, endpoint, socketPath, reason, attempts, ...(diagnosis ? { diagnosis } : {}) };
  };
  const tryClient = async (kind: TransportKind, client: CriReader, okReason: string, diagnosis?: SocketDiagnosis): Promise<TransportSelection | undefined> => {
    try {
      const outcome = await probe(client, probeMs, signal);
      const reason = outcome === 'ok' ? okReason : `${okReason}; but the runtime did not answer Version within ${probeMs} ms (hung runtime: kept this transport, the hang is the finding)`;
      return chosen(kind, client, reason, diagnosis);
    } catch (error) {
      client.close();
      // A cancelled probe says nothing about the transport: stop selecting instead of trying the next one.
      if (signal?.aborted === true) throw error;
      const detail = errorText(error);
      attempts.push({ kind, ok: false, detail });
      logger.debug(`CRI transport ${kind} failed: ${detail}`);
      return undefined;
    }
  };

  const isRoot = async (): Promise<boolean> => {
    const id = await host.exec(['id', '-u'], { timeoutMs: probeMs, ...sig });
    return id.exitCode === 0 && id.stdout.trim() === '0';
  };

  if (wanted === 'unixSocket' || wanted === 'auto') {
    const picked = await tryClient('unixSocket', unixSocketClient(host, socketPath, clientOptions), `direct stream to ${socketPath}`);
    if (picked) return picked;
    if (wanted === 'unixSocket') {
      const diagnosis = await diagnoseSocket(host, socketPath, { timeoutMs: probeMs, ...sig });
      if (diagnosis.problem === 'accessible') {
        markForwardRefused(attempts, ', or nothing listens on it (the socket exists and this user may open it)');
        throw new TransportSelectionError(
          `cannot reach CRI at ${socketPath} through a stream-local forward: the socket exists and uid ${String(diagnosis.uid)} may open it, ` +
            `so ${forwardRefused}, or nothing listens on it; check AllowStreamLocalForwarding / DisableForwarding in the node's sshd_config, ` +
            `or use the exec transport (socat on the node) (${attempts.map((a) => a.detail).join('; ')})`,
          attempts,
          diagnosis,
        );
      }
      throw new TransportSelectionError(`cannot reach CRI at ${socketPath}: ${diagnosis.message} (${attempts.map((a) => a.detail).join('; ')})`, attempts, diagnosis);
    }
  }

  const diagnosis = await diagnoseSocket(host, socketPath, { timeoutMs: probeMs, ...sig });
  logger.info(`CRI socket diagnosis: ${diagnosis.message}`);
  if (diagnosis.problem === 'missing' || diagnosis.problem === 'notASocket') {
    throw new TransportSelectionError(diagnosis.message, attempts, diagnosis);
  }
  const root = options.sudo !== undefined ? !options.sudo : await isRoot();
  const triedStream = attempts.some((a) => a.kind === 'unixSocket');
  const why =
    diagnosis.problem === 'permissionDenied'
      ? 'the socket is root-only for this user'
      : !triedStream
        ? `the ${wanted} transport was asked for`
        : // The user may open the socket, so a transport below that reaches it proves the stream failed
          // because sshd would not forward it; `chosen` then says so in the unixSocket attempt as well.
          forwardRefused;

  // The node-side fallbacks, in order: each needs one tool on the node (under `sudo -n` unless root).
  const fallbacks: { kind: 'execRelay' | 'crictl'; tool: string; versionFlag: string; client: () => CriReader; reason: string }[] = [
    { kind: 'execRelay', tool: 'socat', versionFlag: '-V', client: () => execRelayClient(host, socketPath, !root, clientOptions), reason: `${why}: relaying through ${root ? '' : 'sudo -n '}socat on the node` },
    { kind: 'crictl', tool: 'crictl', versionFlag: '--version', client: () => new CrictlReader(host, endpoint, !root, clientOptions), reason: `${why}, and no usable socat: using crictl on the node` },
  ];
  for (const fallback of fallbacks) {
    if (wanted !== fallback.kind && wanted !== 'auto') continue;
    const check = await checkCommand(
      host,
      fallback.tool,
      root ? [fallback.tool, fallback.versionFlag] : ['sudo', '-n', fallback.tool, fallback.versionFlag],
      root ? `${fallback.tool} is not installed on the node` : `${fallback.tool} is not installed or \`sudo -n ${fallback.tool}\` is not allowed`,
      probeMs,
      signal,
    );
    if (check.present) {
      const picked = await tryClient(fallback.kind, fallback.client(), fallback.reason, diagnosis);
      if (picked) return picked;
    } else {
      attempts.push({ kind: fallback.kind, ok: false, detail: check.detail });
    }
  }
  const failedWhy =
    diagnosis.problem === 'permissionDenied' ? diagnosis.message : triedStream ? `a direct stream to the socket failed (${forwardRefused}, or nothing listens on it?)` : why;
  throw new TransportSelectionError(
    `no way to speak CRI on ${host.description}: ${failedWhy}; tried ${attempts.map((a) => `${a.kind} (${a.detail})`).join(', ')}`,
    attempts,
    diagnosis,
  );
}
