// A kubeconfig exec credential plugin (aws eks get-token, gke-gcloud-auth-plugin, kubelogin, …), run by us
// instead of client-node: client-node spawns it with no deadline and no way to stop it, so a plugin waiting
// for a browser login or an MFA code would hang list/watch past every timeout and pile up one process per
// retry. Here a run is shared by concurrent requests, raced against each caller's deadline and abort
// signal, killed (its whole process group) once nobody waits for it, and its failure names the command
// and what to run in a terminal to see its prompt.

import { spawn } from 'node:child_process';
import { dirname, isAbsolute, resolve } from 'node:path';
import { abortable } from '../../core/util/abortable';
import { KubeTimeoutError } from './errors';
import { KubeConfigError } from './kubeconfig';

export interface ExecConfig {
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  apiVersion: string;
  installHint?: string;
}

export interface ExecCredential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** ms since the epoch; undefined: valid until the API server answers 401. */
  expiresAt?: number;
}

/** The plugin failed, hung or answered nonsense: a kubeconfig problem the user fixes (kind "config"). */
export class ExecCredentialError extends KubeConfigError {
  constructor(
    file: string,
    readonly context: string,
    /** The command line as a user would type it in a terminal. */
    readonly commandLine: string,
    reason: string,
  ) {
    super(file, `context "${context}": credential plugin \`${commandLine}\` ${reason}`);
    this.name = 'ExecCredentialError';
  }
}

/** Reads `user.exec` of a kubeconfig user stanza; undefined when the user has no exec plugin. */
export function readExecConfig(user: Record<string, unknown> | undefined, kubeconfigFile: string | undefined): ExecConfig | undefined {
  const exec = user?.['exec'];
  if (typeof exec !== 'object' || exec === null) return undefined;
  const raw = exec as Record<string, unknown>;
  const command = typeof raw['command'] === 'string' ? raw['command'] : '';
  if (command === '') throw new KubeConfigError(kubeconfigFile ?? 'kubeconfig', 'users[].user.exec has no command');
  const args = Array.isArray(raw['args']) ? raw['args'].map(String) : [];
  const env = Array.isArray(raw['env'])
    ? raw['env'].filter((e): e is { name: unknown; value: unknown } => typeof e === 'object' && e !== null).map((e) => ({ name: String(e.name), value: String(e.value) }))
    : [];
  // kubectl: a command with a slash in it is relative to the kubeconfig file that named it.
  const resolved = command.includes('/') && !isAbsolute(command) && kubeconfigFile !== undefined ? resolve(dirname(kubeconfigFile), command) : command;
  const config: ExecConfig = { command: resolved, args, env, apiVersion: typeof raw['apiVersion'] === 'string' ? raw['apiVersion'] : 'client.authentication.k8s.io/v1beta1' };
  if (typeof raw['installHint'] === 'string' && raw['installHint'] !== '') config.installHint = raw['installHint'];
  return config;
}

function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return `${seconds} s`;
}

/** One argument as a POSIX shell reads it; plain words stay unquoted so the line reads like the docs. */
function displayArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

export function execCommandLine(exec: ExecConfig): string {
  return [...exec.env.map((e) => `${e.name}=${displayArg(e.value)}`), displayArg(exec.command), ...exec.args.map(displayArg)].join(' ');
}

function parseCredential(stdout: string): ExecCredential | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return `printed something that is not an ExecCredential (JSON): ${JSON.stringify(stdout.slice(0, 200))}`;
  }
  const status = (parsed as { status?: Record<string, unknown> } | null)?.status;
  if (typeof status !== 'object' || status === null) return 'printed an ExecCredential without a status';
  const credential: ExecCredential = {};
  if (typeof status['token'] === 'string' && status['token'] !== '') credential.token = status['token'];
  if (typeof status['clientCertificateData'] === 'string' && typeof status['clientKeyData'] === 'string') {
    credential.clientCertificateData = status['clientCertificateData'];
    credential.clientKeyData = status['clientKeyData'];
  }
  if (credential.token === undefined && credential.clientCertificateData === undefined) return 'printed an ExecCredential with neither a token nor a client certificate';
  if (typeof status['expirationTimestamp'] === 'string') {
    const at = Date.parse(status['expirationTimestamp']);
    if (!Number.isNaN(at)) credential.expiresAt = at;
  }
  return credential;
}

interface Run {
  promise: Promise<ExecCredential>;
  stop: (why: Error) => void;
  waiting: number;
}

/** How long before its expiry a credential is run for again, so a request does not carry a dying token. */
const EXPIRY_MARGIN_MS = 10_000;
const MAX_OUTPUT_BYTES = 1024 * 1024;

export class ExecCredentialSource {
  private cached: ExecCredential | undefined;
  private running: Run | undefined;
  readonly commandLine: string;

  constructor(
    private readonly exec: ExecConfig,
    private readonly where: { file: string; context: string },
  ) {
    this.commandLine = execCommandLine(exec);
  }

  /** The API server refused the credential (401): the next request runs the plugin again. */
  invalidate(): void {
    this.cached = undefined;
  }

  /**
   * The credential, from the cache or a (shared) plugin run. Rejects with ExecCredentialError when the
   * plugin fails or outlives the caller's deadline (a KubeTimeoutError reason), with the signal's reason
   * when the caller cancels; the run is killed once no caller waits for it any more.
   */
  async get(signal: AbortSignal): Promise<ExecCredential> {
    const cached = this.cached;
    if (cached !== undefined && (cached.expiresAt === undefined || cached.expiresAt - EXPIRY_MARGIN_MS > Date.now())) return cached;
    if (signal.aborted) throw this.abortError(signal);
    const run = (this.running ??= this.start());
    run.waiting++;
    try {
      return await abortable(run.promise, signal, () => this.abortError(signal));
    } finally {
      run.waiting--;
      if (run.waiting === 0 && signal.aborted) run.stop(this.abortError(signal));
    }
  }

  private abortError(signal: AbortSignal): Error {
    const reason: unknown = signal.reason;
    if (reason instanceof KubeTimeoutError) {
      return this.error(
        `gave no credential within ${formatSeconds(reason.ms)} and was stopped. It may be waiting for input it cannot get here ` +
          `(a browser login, an MFA or device code). Run it in a terminal to see its prompt: ${this.commandLine} — then refresh.`,
      );
    }
    return reason instanceof Error ? reason : new Error(String(reason ?? 'aborted'));
  }

  private error(reason: string): ExecCredentialError {
    return new ExecCredentialError(this.where.file, this.where.context, this.commandLine, reason);
  }

  private start(): Run {
    let stop: (why: Error) => void = () => undefined;
    const promise = new Promise<ExecCredential>((resolvePromise, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const e of this.exec.env) env[e.name] = e.value;
      // What kubectl passes: the plugin may not prompt (its stdin is not a terminal here).
      env['KUBERNETES_EXEC_INFO'] = JSON.stringify({ apiVersion: this.exec.apiVersion, kind: 'ExecCredential', spec: { interactive: false } });
      // Its own process group, so that stopping it also stops what it started (a CLI's helpers, a browser opener).
      const child = spawn(this.exec.command, this.exec.args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let stdout = '';
      let stderr = '';
      let settled = false;
      const settle = (outcome: ExecCredential | Error): void => {
        if (settled) return;
        settled = true;
        if (outcome instanceof Error) reject(outcome);
        else resolvePromise(outcome);
      };
      const kill = (): void => {
        if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      stop = (why) => {
        kill();
        settle(why);
      };
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.length > MAX_OUTPUT_BYTES) stop(this.error(`printed more than ${MAX_OUTPUT_BYTES} bytes`));
      });
      child.stderr.on('data', (chunk: string) => {
        // Keep the end: the last lines say why it failed.
        stderr = (stderr + chunk).slice(-4000);
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        const hint = this.exec.installHint !== undefined ? ` ${this.exec.installHint}` : '';
        settle(this.error(error.code === 'ENOENT' ? `could not be started: ${this.exec.command} was not found (PATH=${process.env['PATH'] ?? ''}).${hint}` : `could not be started: ${error.message}`));
      });
      child.on('close', (code, signalName) => {
        if (code !== 0) {
          const tail = stderr.trim().split('\n').slice(-5).join('\n');
          settle(this.error(`failed (${code !== null ? `exit ${code}` : `signal ${signalName ?? '?'}`})${tail !== '' ? `: ${tail}` : ''}`));
          return;
        }
        const credential = parseCredential(stdout);
        if (typeof credential === 'string') settle(this.error(credential));
        else settle(credential);
      });
    });
    const run: Run = { promise, stop: (why) => stop(why), waiting: 0 };
    const clear = (): void => {
      if (this.running === run) this.running = undefined;
    };
    promise.then((credential) => {
      this.cached = credential;
      clear();
    }, clear);
    return run;
  }
}
