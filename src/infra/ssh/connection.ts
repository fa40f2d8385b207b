// One SSH connection to one hop, shared by every exec channel and stream-local forward to that host.
// It connects lazily, reconnects on the next call after the connection closed, verifies the host key
// against known_hosts before authenticating, and gives every operation a deadline and an AbortSignal.

import type { Duplex } from 'node:stream';
import { Client, type ClientChannel, type ConnectConfig } from 'ssh2';
import { abortable } from '../../core/util/abortable';
import type { Logger } from '../../core/util/logger';
import { silentLogger } from '../../core/util/logger';
import type { ExecOptions, ExecResult, RemoteHost } from '../remote';
import { KeyGivenUpError, LockedKeyAgent, prepareAuth, type AuthCandidate, type AuthOptions, type PreparedAuth, type UnlockContext } from './auth';
import {
  ChannelOpenError,
  SshAbortedError,
  SshAuthError,
  SshDisconnectedError,
  type SshError,
  SshTimeoutError,
  SshUnreachableError,
} from './errors';
import { createHostCheck, type ConfirmUnknownHost } from './hostVerifier';
import type { KnownHostsFiles } from './knownHosts';
import { buildShellCommand } from './shellQuote';
import type { SshHop } from './sshConfig';
import { CappedOutput } from '../cappedOutput';
import { withDeadline } from '../../core/util/deadlineSignal';
import { coalesceWrites } from './coalescedWrites';

export const defaultMaxOutputBytes = 1024 * 1024;
/** How long the command that makes sshd set TCP_NODELAY (primeNoDelay) may take. */
const NO_DELAY_PRIMER_TIMEOUT_MS = 10_000;

export interface SshConnectionOptions {
  hop: SshHop;
  /** The previous hop of a ProxyJump chain; this hop is reached through a direct-tcpip channel on it. */
  via?: SshConnection;
  knownHosts: KnownHostsFiles;
  confirmUnknownHost: ConfirmUnknownHost;
  auth: Omit<AuthOptions, 'identityFiles'>;
  /** TCP connect + handshake + auth; time spent in the host-key confirmation does not count. */
  connectTimeoutMs?: number;
  /** Opening a channel (exec, forward) on an established connection. */
  channelOpenTimeoutMs?: number;
  /** SSH-level keepalive: a dead peer is detected after interval × countMax. */
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  logger?: Logger;
}

export interface SshConnectionStats {
  /** TCP (or jump-channel) connections established so far; reuse keeps this at 1. */
  connects: number;
  channelsOpened: number;
  /** Runs of `true` made only so that sshd turns Nagle's algorithm off (primeNoDelay) that exited 0. */
  noDelayPrimers: number;
}

interface ChannelFailure extends Error {
  reason?: number | string;
}

export class SshConnection implements RemoteHost {
  readonly description: string;
  readonly stats: SshConnectionStats = { connects: 0, channelsOpened: 0, noDelayPrimers: 0 };
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  /** The running connection attempt and how many callers wait for it. */
  private attempt: { controller: AbortController; waiting: number } | undefined;
  private disposed = false;
  private readonly logger: Logger;
  /** Channels open right now (exec, forwards); the pool only closes a connection that has none. */
  private openChannels = 0;
  private lastUsedMs = performance.now();
  /** The client on which a command has run, so that sshd has turned Nagle's algorithm off (see primeNoDelay). */
  private noDelayClient: Client | undefined;

  constructor(private readonly options: SshConnectionOptions) {
    const { hop } = options;
    this.description = `${hop.user}@${hop.host}:${hop.port}`;
    this.logger = options.logger ?? silentLogger;
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /**
   * Milliseconds since this connection last had a channel open, or undefined while it is busy (a channel
   * open, or a connect in progress). Closed connections count as busy: the pool has already dropped them.
   */
  idleMs(now = performance.now()): number | undefined {
    if (this.disposed || this.openChannels > 0 || this.connecting !== undefined) return undefined;
    return Math.max(0, now - this.lastUsedMs);
  }

  /**
   * Connects if needed; concurrent callers share one attempt. The attempt is cancelled (its prompts
   * closed, their answers ignored, nothing written) once every caller waiting for it has aborted.
   */
  async connect(signal?: AbortSignal): Promise<Client> {
    if (this.disposed) throw new SshDisconnectedError(this.description, 'the connection was closed by PLEG Doctor');
    if (this.client !== undefined) return this.client;
    let attempt = this.attempt;
    if (attempt === undefined || this.connecting === undefined) {
      const controller = new AbortController();
      attempt = { controller, waiting: 0 };
      this.attempt = attempt;
      const current = attempt;
      this.connecting = this.establish(controller.signal).finally(() => {
        if (this.attempt === current) {
          this.connecting = undefined;
          this.attempt = undefined;
        }
        this.lastUsedMs = performance.now();
      });
    }
    const shared = attempt;
    const connecting = this.connecting;
    if (connecting === undefined) throw new Error('unreachable: no connection attempt');
    shared.waiting++;
    const leave = (): void => {
      shared.waiting--;
      if (shared.waiting === 0 && signal?.aborted === true) shared.controller.abort(signal.reason);
    };
    try {
      return await abortable(connecting, signal, () => new SshAbortedError(this.description, 'connecting', signal?.reason));
    } finally {
      // A caller without a signal never aborts, so the attempt it waits for always runs to its end.
      leave();
    }
  }

  close(): void {
    this.disposed = true;
    this.attempt?.controller.abort(new Error('the connection was closed by PLEG Doctor'));
    this.client?.end();
    this.client = undefined;
  }

  async exec(argv: readonly string[], options: ExecOptions): Promise<ExecResult> {
    // The login shell reports its PID, then exec()s the command in its place, so the PID is the command's.
    // On a deadline we send the SSH "signal" request, but OpenSSH refuses it for root logins ("session
    // signalling requires privilege separation"), so we also kill that PID's process group from a second
    // channel. Both are best effort; the caller gets its answer at the deadline either way.
    const command = `printf '${pidMarker}%s\\n' "$$" >&2; exec ${buildShellCommand(argv)}`;
    if (!(options.timeoutMs > 0)) throw new RangeError(`exec ${JSON.stringify(argv[0])}: timeoutMs must be a positive number, got ${String(options.timeoutMs)}`);
    const started = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
    const signal = options.signal !== undefined ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    const what = `command ${JSON.stringify(argv[0])}`;
    let channel: ClientChannel;
    let client: Client;
    // exit-status can arrive in the same read as the exec reply, before an awaiting caller resumes, so
    // the exit listener is attached synchronously when the channel opens (output is buffered by the stream).
    const exit: { code?: number | null; signal?: string } = {};
    const watchExit = (opened: ClientChannel): void => {
      opened.once('exit', (code: number | null, signalName?: string) => {
        exit.code = code;
        if (signalName !== undefined) exit.signal = signalName;
      });
    };
    try {
      // Only the caller's own cancellation may call off a shared connection attempt (a host-key question a
      // person is reading survives this command's deadline); the deadline just stops this call waiting.
      client = await abortable(this.connect(options.signal), deadline.signal, () => new SshTimeoutError(this.description, `connecting and starting ${what}`, options.timeoutMs));
      channel = await this.openChannel(client, `exec ${argv[0] ?? ''}`, signal, (cb) => client.exec(command, cb), watchExit);
      this.noDelayClient = client;
    } catch (error) {
      clearTimeout(timer);
      if (deadline.signal.aborted && !(options.signal?.aborted ?? false)) {
        throw new SshTimeoutError(this.description, `connecting and starting ${what}`, options.timeoutMs);
      }
      throw error;
    }
    return new Promise<ExecResult>((resolve, reject) => {
      const cap = options.maxOutputBytes ?? defaultMaxOutputBytes;
      const out = new CappedBuffer(cap);
      const err = new CappedBuffer(cap, true);
      let done = false;

      const result = (timedOut: boolean): ExecResult => ({
        exitCode: exit.code ?? null,
        ...(exit.signal !== undefined ? { signal: exit.signal } : {}),
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        timedOut,
        durationMs: performance.now() - started,
      });
      const finish = (): void => {
        done = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        if (done) return;
        finish();
        const pid = err.remotePid();
        if (pid !== undefined) {
          killChannel(channel);
          this.killRemote(pid);
        } else {
          // The shell has not reported its PID yet (slow login rc files): keep the channel open a little
          // longer to learn it, so the command does not start and then outlive its deadline unobserved.
          const giveUp = setTimeout(() => killChannel(channel), pidGraceMs);
          err.onPid = (late) => {
            clearTimeout(giveUp);
            killChannel(channel);
            this.killRemote(late);
          };
          channel.once('close', () => clearTimeout(giveUp));
        }
        if (options.signal?.aborted === true) {
          reject(new SshAbortedError(this.description, what, options.signal.reason));
        } else {
          // A command that outlives its deadline is a finding (a hung runtime), not a failure of the call.
          resolve(result(true));
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) {
        onAbort();
        return;
      }
      channel.on('data', (chunk: Buffer) => out.push(chunk));
      channel.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      channel.on('close', () => {
        if (done) return;
        finish();
        if (exit.code === undefined && this.client !== client) {
          reject(new SshDisconnectedError(this.description, `connection closed while ${what} was running`));
          return;
        }
        resolve(result(false));
      });
      if (options.stdin !== undefined) channel.end(options.stdin);
      else channel.end();
    });
  }

  private killRemote(pid: number): void {
    const argv = ['kill', '-s', 'KILL', '--', `-${pid}`, String(pid)];
    this.exec(argv, { timeoutMs: 5_000 }).then(
      (result) => this.logger.debug(`killed remote process ${pid} after its deadline (kill exit ${String(result.exitCode)})`),
      (error: unknown) => this.logger.warn(`could not kill remote process ${pid} after its deadline: ${String(error)}`),
    );
  }

  /**
   * A byte stream to a remote process (e.g. `sudo -n socat STDIO UNIX-CONNECT:<sock>`). The signal cancels
   * opening only; once returned, the caller owns the stream and destroys it to close the channel. The
   * process's stderr is drained into the debug log so that it cannot stall the channel window.
   */
  async openExecStream(argv: readonly string[], signal?: AbortSignal): Promise<Duplex> {
    const command = buildShellCommand(argv);
    const client = await this.connect(signal);
    const channel = await this.openChannel(client, `exec ${argv[0] ?? ''}`, signal, (cb) => client.exec(command, cb));
    this.noDelayClient = client;
    coalesceWrites(channel);
    const stderr = new CappedBuffer(4096);
    channel.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    channel.on('close', () => {
      const text = stderr.text().trim();
      if (text !== '') this.logger.debug(`exec stream ${argv[0] ?? ''} stderr: ${text}`);
    });
    return channel;
  }

  /** OpenSSH direct-streamlocal: a byte stream to a unix socket on the host, no remote process involved. */
  async openUnixSocket(path: string, signal?: AbortSignal): Promise<Duplex> {
    const client = await this.connect(signal);
    this.primeNoDelay(client);
    const channel = await this.openChannel(client, `stream-local ${path}`, signal, (cb) => client.openssh_forwardOutStreamLocal(path, cb));
    coalesceWrites(channel);
    return channel;
  }

  /**
   * OpenSSH's sshd leaves Nagle's algorithm on until the connection runs its first command (session.c sets
   * TCP_NODELAY there, pty or not). A forwarded socket alone never runs one, so a reply that sshd sends in
   * two writes has its second held until this side acknowledges the first, and Linux delays that
   * acknowledgement by 40 ms when it has nothing to send: a 110-pod ListContainers took 45–50 ms over SSH
   * instead of 5. Running `true` once per connection, alongside the first forward (a socket, or a ProxyJump
   * hop), turns that off. A host that refuses commands only costs the debug line below.
   */
  private primeNoDelay(client: Client): void {
    if (this.noDelayClient === client) return;
    this.noDelayClient = client;
    this.exec(['true'], { timeoutMs: NO_DELAY_PRIMER_TIMEOUT_MS }).then(
      (result) => {
        if (result.exitCode === 0) this.stats.noDelayPrimers++;
        else this.logger.debug(`${this.description}: \`true\` (run so that sshd turns Nagle's algorithm off) ended with ${result.timedOut ? 'a timeout' : `exit ${String(result.exitCode)}`}; forwarded sockets may wait 40 ms for acknowledgements`);
      },
      (error: unknown) => this.logger.debug(`${this.description}: could not run \`true\` to turn sshd's Nagle's algorithm off: ${(error as Error).message}`),
    );
  }

  /** direct-tcpip from this host to another (ProxyJump). */
  async forwardOut(host: string, port: number, signal?: AbortSignal): Promise<Duplex> {
    const client = await this.connect(signal);
    // A jump host's sshd relays the target's replies with the same Nagle wait: 44 ms a round trip otherwise.
    this.primeNoDelay(client);
    return this.openChannel(client, `direct-tcpip ${host}:${port}`, signal, (cb) => client.forwardOut('127.0.0.1', 0, host, port, cb));
  }

  private openChannel(
    client: Client,
    what: string,
    signal: AbortSignal | undefined,
    open: (cb: (err: Error | undefined, channel: ClientChannel) => void) => void,
    onOpen?: (channel: ClientChannel) => void,
  ): Promise<ClientChannel> {
    const timeoutMs = this.options.channelOpenTimeoutMs ?? 10_000;
    return new Promise<ClientChannel>((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = (): void => {
        if (settle()) reject(new SshAbortedError(this.description, `opening ${what}`, signal?.reason));
      };
      const timer = setTimeout(() => {
        if (settle()) reject(new SshTimeoutError(this.description, `opening ${what}`, timeoutMs));
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted === true) {
        onAbort();
        return;
      }
      try {
        open((error, channel) => {
          if (!settle()) {
            // Opened after the caller gave up: close it so the server side does not linger.
            if (error === undefined) killChannel(channel);
            return;
          }
          if (error !== undefined) {
            reject(this.channelError(what, error as ChannelFailure));
            return;
          }
          this.stats.channelsOpened++;
          this.openChannels++;
          channel.once('close', () => {
            this.openChannels--;
            this.lastUsedMs = performance.now();
          });
          onOpen?.(channel);
          resolve(channel);
        });
      } catch (error) {
        // ssh2 throws synchronously when the socket is gone.
        if (settle()) reject(new SshDisconnectedError(this.description, (error as Error).message, error));
      }
    });
  }

  private channelError(what: string, error: ChannelFailure): SshError {
    const code = typeof error.reason === 'number' ? error.reason : undefined;
    if (code === 1) {
      return new ChannelOpenError(
        this.description,
        what,
        'prohibited',
        code,
        what.startsWith('stream-local')
          ? 'the SSH server refused to forward the socket (stream-local forwarding disabled: AllowStreamLocalForwarding no or DisableForwarding yes); use the exec transport'
          : 'the server forbids this channel type (AllowTcpForwarding / DisableForwarding)',
        error,
      );
    }
    if (code === 2) {
      return new ChannelOpenError(
        this.description,
        what,
        'open-failed',
        code,
        what.startsWith('stream-local')
          ? // OpenSSH sends this same code when its config refuses the forward, so all three causes are named.
            'open failed: the socket does not exist or this user may not open it (a CRI socket is usually 0660 root:root), ' +
              'or the SSH server refused to forward the socket (stream-local forwarding disabled?); ' +
              'check with `test -S` / `ls -l`, or connect as root, or use the exec transport with sudo'
          : 'open failed: the server could not connect to the destination',
        error,
      );
    }
    if (/No response from server|Not connected/i.test(error.message)) {
      return new SshDisconnectedError(this.description, error.message, error);
    }
    return new ChannelOpenError(this.description, what, 'other', code, error.message, error);
  }

  private async establish(attempt: AbortSignal): Promise<Client> {
    const { hop, via } = this.options;
    const target = `${hop.host}:${hop.port}`;
    // Identity files are read only once the server asks for authentication, i.e. after its host key was
    // verified, as OpenSSH does; an encrypted key's passphrase is asked for only when the server accepts
    // that key (see auth.ts), so nobody is asked to unlock a key for a host they have not trusted yet.
    let prepared: PreparedAuth | undefined;
    const connectTimeoutMs = this.options.connectTimeoutMs ?? 10_000;
    const sock =
      via !== undefined ? await via.forwardOut(hop.host, hop.port, withDeadline(attempt, connectTimeoutMs)) : undefined;
    const client = new Client();
    const tried: string[] = [];
    const notes: string[] = [];
    // How far the attempt got decides what a failure is called: no TCP connection, no SSH greeting, or later.
    let tcpConnected = sock !== undefined;
    let greeted = false;
    const client$ = new Promise<Client>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        deadline.stop();
        attempt.removeEventListener('abort', onCancel);
        client.destroy();
        reject(error);
      };
      // The deadline covers TCP connect, handshake and authentication; a prompt (host key, passphrase) pauses it.
      const deadline = pausableTimer(connectTimeoutMs, () =>
        fail(new SshUnreachableError(target, !tcpConnected ? 'connect-timeout' : !greeted ? 'handshake-timeout' : 'auth-timeout', undefined, connectTimeoutMs)),
      );
      const onCancel = (): void => fail(new SshAbortedError(this.description, 'connecting', attempt.reason));
      attempt.addEventListener('abort', onCancel, { once: true });
      const onPrompt = (prompting: boolean): void => {
        if (prompting) deadline.pause();
        else if (!settled) deadline.resume();
      };
      const hostCheck = createHostCheck({
        host: hop.host,
        port: hop.port,
        files: this.options.knownHosts,
        confirmUnknownHost: this.options.confirmUnknownHost,
        logger: this.logger,
        signal: attempt,
        onPrompt,
      });
      const unlockContext: UnlockContext = { signal: attempt, onPrompt, note: (reason) => notes.push(reason) };
      let next = 0;
      const authHandler = (left: unknown, partial: unknown, nextAuth: (method: unknown) => void): void => {
        if (settled) return;
        if (prepared === undefined) {
          prepareAuth({ ...this.options.auth, identityFiles: hop.identityFiles }, this.logger).then(
            (result) => {
              if (settled) return;
              prepared = result;
              if (result.candidates.length === 0) {
                fail(new SshAuthError(this.description, [], skippedDetail(result.skipped)));
                return;
              }
              authHandler(left, partial, nextAuth);
            },
            (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
          );
          return;
        }
        const candidate: AuthCandidate | undefined = prepared.candidates[next++];
        if (candidate === undefined) {
          nextAuth(false);
          return;
        }
        const username = hop.user;
        if (candidate.type === 'agent') {
          tried.push(candidate.label);
          nextAuth({ type: 'agent', username, agent: candidate.socket });
        } else if (candidate.type === 'publickey') {
          tried.push(candidate.label);
          nextAuth({ type: 'publickey', username, key: candidate.key });
        } else if (candidate.publicKey !== undefined) {
          // Offered by its public half; the passphrase is asked in sign(), after the server accepted the key.
          tried.push(candidate.label);
          nextAuth({ type: 'agent', username, agent: new LockedKeyAgent(candidate.publicKey, candidate.unlock, unlockContext, candidate.keyPath) });
        } else {
          // No public half to offer (e.g. an encrypted PEM key without its .pub): unlock first, as ssh does.
          candidate.unlock(unlockContext).then(
            (key) => {
              if (settled) return;
              if (key === undefined) {
                authHandler(left, partial, nextAuth);
                return;
              }
              tried.push(candidate.label);
              nextAuth({ type: 'publickey', username, key });
            },
            (error: unknown) => fail(attempt.aborted ? new SshAbortedError(this.description, 'connecting', attempt.reason) : error instanceof Error ? error : new Error(String(error))),
          );
        }
      };
      client.on('connect', () => {
        tcpConnected = true;
      });
      client.on('handshake', () => {
        greeted = true;
      });
      client.on('ready', () => {
        if (settled) return;
        settled = true;
        deadline.stop();
        attempt.removeEventListener('abort', onCancel);
        // Nagle + delayed ACK cost ~40 ms per exchange on small gRPC frames (docs/node-access.md).
        client.setNoDelay(true);
        resolve(client);
      });
      client.on('error', (error: Error & { level?: string; code?: string }) => {
        if (error.level === 'agent') {
          // The agent failing, or a key given up (its reason is in the notes), is not fatal: the next key is tried.
          if (!(error instanceof KeyGivenUpError) && !attempt.aborted) tried.push(`(agent error: ${error.message})`);
          return;
        }
        if (!settled) {
          fail(this.connectError(error, hostCheck.refusal(), tried, [...(prepared?.skipped ?? []), ...notes], { tcpConnected, greeted }));
          return;
        }
        // Host names go to the debug log only (conventions); the warning itself carries no address.
        this.logger.debug(`ssh ${this.description}: ${error.message}`);
        this.logger.warn(`ssh connection error: ${error.message}`);
      });
      client.on('close', () => {
        if (!settled) {
          fail(
            !greeted
              ? new SshUnreachableError(target, 'closed-before-greeting')
              : new SshDisconnectedError(this.description, 'the server closed the connection during the handshake'),
          );
        }
        if (this.client === client) this.client = undefined;
      });
      if (attempt.aborted) {
        onCancel();
        return;
      }
      deadline.start();
      const config: ConnectConfig = {
        host: hop.host,
        port: hop.port,
        username: hop.user,
        // Our own deadline above replaces readyTimeout so that a person reading a prompt is not timed out.
        readyTimeout: 0,
        keepaliveInterval: this.options.keepaliveIntervalMs ?? 5_000,
        keepaliveCountMax: this.options.keepaliveCountMax ?? 3,
        hostVerifier: (key: Buffer, verify: (permitted: boolean) => void) => {
          // The server has sent its identification line and its host key: it speaks SSH.
          greeted = true;
          hostCheck.verifier(key, verify);
        },
        authHandler: authHandler as unknown as NonNullable<ConnectConfig['authHandler']>,
        ...(sock !== undefined ? { sock } : {}),
      };
      client.connect(config);
    });
    const ready = await client$;
    this.stats.connects++;
    this.client = ready;
    this.logger.debug(`ssh connected to ${this.description}${via !== undefined ? ` via ${via.description}` : ''}`);
    return ready;
  }

  private connectError(
    error: Error & { level?: string; code?: string },
    refusal: SshError | undefined,
    tried: string[],
    skipped: string[],
    progress: { tcpConnected: boolean; greeted: boolean },
  ): Error {
    if (refusal !== undefined) return refusal;
    const { hop } = this.options;
    const target = `${hop.host}:${hop.port}`;
    if (error.level === 'client-dns') return new SshUnreachableError(target, 'ENOTFOUND', error);
    if (!progress.greeted) {
      // ECONNREFUSED, EHOSTUNREACH, … from connect(); a reset or close after connecting means no SSH server answered.
      // A reset can surface as the connect() error itself when the peer accepts and resets at once.
      if (error.level === 'client-socket' && !progress.tcpConnected && error.code !== 'ECONNRESET') {
        return new SshUnreachableError(target, error.code ?? error.message, error);
      }
      if (error.level === 'client-socket' || /lost before handshake/i.test(error.message)) return new SshUnreachableError(target, 'closed-before-greeting', error);
    }
    if (error.level === 'client-socket') return new SshUnreachableError(target, error.code ?? error.message, error);
    if (error.level === 'client-authentication') {
      return new SshAuthError(this.description, tried, skippedDetail(skipped));
    }
    if (error.level === 'client-timeout') {
      return new SshUnreachableError(target, 'handshake-timeout', error);
    }
    return new SshDisconnectedError(this.description, error.message, error);
  }
}

/** A one-shot timer that can be paused while a person answers a prompt, and resumed with the time left. */
function pausableTimer(ms: number, onExpire: () => void): { start(): void; pause(): void; resume(): void; stop(): void } {
  let remaining = ms;
  let startedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const pause = (): void => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    remaining -= performance.now() - startedAt;
  };
  const resume = (): void => {
    if (stopped || timer !== undefined) return;
    startedAt = performance.now();
    timer = setTimeout(onExpire, Math.max(0, remaining));
  };
  return {
    start: resume,
    pause,
    resume,
    stop: () => {
      stopped = true;
      pause();
    },
  };
}

function skippedDetail(skipped: readonly string[]): string | undefined {
  return skipped.length > 0 ? `Identity files not used: ${skipped.join('; ')}` : undefined;
}

/** Sends SIGKILL to the remote process (when the channel still allows requests) and closes the channel. */
function killChannel(channel: ClientChannel): void {
  try {
    // ssh2's signal() refuses once our side sent EOF (stdin ended), which is always the case for exec, so
    // fall back to its protocol object. The "signal" request itself is valid until the channel closes.
    const internal = channel as unknown as { _client?: { _protocol?: { signal?: (id: number, name: string) => void } }; outgoing?: { id?: number; state?: string } };
    const protocol = internal._client?._protocol;
    const state = internal.outgoing?.state;
    if ((state === 'open' || state === 'eof') && internal.outgoing?.id !== undefined && typeof protocol?.signal === 'function') {
      protocol.signal(internal.outgoing.id, 'KILL');
    } else {
      channel.signal('KILL');
    }
  } catch {
    // The channel is already gone; closing below is all that is left to do.
  }
  channel.close();
}

const pidMarker = 'pleg-doctor-pid:';
const pidGraceMs = 5_000;

class CappedBuffer {
  private readonly output: CappedOutput;
  private pid: number | undefined;
  private pending: Buffer | undefined;
  onPid: ((pid: number) => void) | undefined;
  /** With `stripPidLine`, the first line is our PID marker: it is taken out and kept aside. */
  constructor(
    cap: number,
    private stripPidLine = false,
  ) {
    this.output = new CappedOutput(cap);
  }
  get truncated(): boolean {
    return this.output.truncated;
  }
  remotePid(): number | undefined {
    return this.pid;
  }
  push(chunk: Buffer): void {
    if (this.stripPidLine) {
      const data = this.pending !== undefined ? Buffer.concat([this.pending, chunk]) : chunk;
      const newline = data.indexOf(0x0a);
      if (newline < 0 && data.length < 64) {
        this.pending = data;
        return;
      }
      this.stripPidLine = false;
      this.pending = undefined;
      const first = data.subarray(0, newline < 0 ? 0 : newline).toString('latin1');
      const match = new RegExp(`^${pidMarker}(\\d+)$`).exec(first);
      if (match?.[1] !== undefined) {
        this.pid = Number(match[1]);
        this.onPid?.(this.pid);
        chunk = data.subarray(newline + 1);
      } else {
        chunk = data;
      }
      if (chunk.length === 0) return;
    }
    this.output.push(chunk);
  }
  text(): string {
    return this.output.text(this.pending !== undefined ? [this.pending] : []);
  }
}
