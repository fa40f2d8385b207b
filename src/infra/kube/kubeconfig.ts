// Kubeconfig loading with kubectl's merge rules: KUBECONFIG is a path list, missing files in it are skipped,
// and for every cluster, user, context and current-context the first file that defines it wins. Every
// context of every file is kept (not only the current one) and remembers the file that defined it.
// Relative certificate and token paths are resolved against the file that defined the stanza, as kubectl does.

import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type * as JsYaml from 'js-yaml';
import type { ClusterError, ContextInfo } from './gateway';

/** A kubeconfig that cannot be used; `file` names the culprit and the message says why. */
export class KubeConfigError extends Error {
  readonly file: string;
  readonly clusterError: ClusterError;

  constructor(file: string, reason: string) {
    super(`kubeconfig ${file}: ${reason}`);
    this.name = 'KubeConfigError';
    this.file = file;
    this.clusterError = { kind: 'config', message: this.message, detail: reason };
  }
}

type Stanza = Record<string, unknown>;

interface Named {
  name: string;
  body: Stanza;
  file: string;
}

/** One context with its cluster and user stanzas, ready to hand to client-node. */
export interface ResolvedContext {
  info: ContextInfo;
  /** The kubeconfig `cluster` mapping, paths made absolute; undefined when the reference is dangling. */
  cluster?: Stanza;
  user?: Stanza;
  /** Why the context cannot be used (dangling reference, no server); names the file. */
  problem?: ClusterError;
}

export interface LoadedKubeconfig {
  /** The files read, in merge order. */
  files: string[];
  /** The files looked for (kubeconfigFiles): `files` and the missing ones that were skipped. */
  searched: string[];
  /** current-context as merged (the first file that sets it wins), even when no context has that name. */
  currentContext?: string;
  contexts: ResolvedContext[];
}

/**
 * The home directory kubectl takes ~/.kube/config from: $HOME outside Windows (client-go
 * util/homedir/homedir.go, HomeDir), so that `HOME=/x kubectl …` and `HOME=/x pleg-doctor …` read the same
 * file; on Windows client-go weighs HOME, HOMEDRIVE+HOMEPATH and USERPROFILE, and Node's own answer is kept.
 */
export function kubectlHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const home = env['HOME'];
  return process.platform !== 'win32' && home !== undefined && home !== '' ? home : homedir();
}

/** The files kubectl would read: explicit paths, else KUBECONFIG, else ~/.kube/config. */
export function kubeconfigFiles(explicit?: string[], env: Readonly<Record<string, string | undefined>> = process.env, home = kubectlHome(env)): { files: string[]; required: boolean } {
  if (explicit && explicit.length > 0) return { files: explicit, required: true };
  const fromEnv = (env['KUBECONFIG'] ?? '').split(delimiter).filter((p) => p.trim() !== '');
  if (fromEnv.length > 0) return { files: [...new Set(fromEnv)], required: false };
  return { files: [join(home, '.kube', 'config')], required: false };
}

const PATH_KEYS: Record<'cluster' | 'user', string[]> = {
  cluster: ['certificate-authority'],
  user: ['client-certificate', 'client-key', 'tokenFile'],
};

function absolutize(body: Stanza, keys: string[], file: string): Stanza {
  const out: Stanza = { ...body };
  for (const key of keys) {
    const value = out[key];
    if (typeof value === 'string' && value !== '' && !isAbsolute(value)) out[key] = resolve(dirname(file), value);
  }
  return out;
}

function isMapping(value: unknown): value is Stanza {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readList(doc: Stanza, listKey: 'clusters' | 'users' | 'contexts', bodyKey: 'cluster' | 'user' | 'context', file: string): Named[] {
  const raw = doc[listKey];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new KubeConfigError(file, `"${listKey}" must be a list`);
  return raw.map((entry: unknown, i) => {
    if (!isMapping(entry)) throw new KubeConfigError(file, `${listKey}[${i}] must be a mapping`);
    const name = entry['name'];
    if (typeof name !== 'string' || name === '') throw new KubeConfigError(file, `${listKey}[${i}].name is missing`);
    const body = entry[bodyKey] ?? {};
    if (!isMapping(body)) throw new KubeConfigError(file, `${listKey}[${i}] ("${name}"): "${bodyKey}" must be a mapping`);
    const keys = bodyKey === 'context' ? [] : PATH_KEYS[bodyKey];
    return { name, body: absolutize(body, keys, file), file };
  });
}

/**
 * js-yaml, evaluated on the first kubeconfig read rather than when the extension loads: its loader builds
 * its tables at module evaluation, close to half of what evaluating dist/extension.js costs. A plain
 * require() in a function is what esbuild bundles as a module initialised on first call.
 */
let jsYaml: typeof JsYaml | undefined;
function loadYaml(text: string, options: JsYaml.LoadOptions): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred evaluation, see above
  jsYaml ??= require('js-yaml') as typeof JsYaml;
  return jsYaml.load(text, options);
}

/** Parses one kubeconfig file's text; throws KubeConfigError naming `file`. */
export function parseKubeconfig(text: string, file: string): { clusters: Named[]; users: Named[]; contexts: Named[]; currentContext?: string } {
  let doc: unknown;
  try {
    doc = loadYaml(text, { filename: file });
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new KubeConfigError(file, `invalid YAML: ${reason ?? 'unknown error'}`);
  }
  if (doc === undefined || doc === null) return { clusters: [], users: [], contexts: [] };
  if (!isMapping(doc)) throw new KubeConfigError(file, 'the document is not a mapping (expected apiVersion, clusters, users, contexts)');
  const current = doc['current-context'];
  const parsed: { clusters: Named[]; users: Named[]; contexts: Named[]; currentContext?: string } = {
    clusters: readList(doc, 'clusters', 'cluster', file),
    users: readList(doc, 'users', 'user', file),
    contexts: readList(doc, 'contexts', 'context', file),
  };
  if (typeof current === 'string' && current !== '') parsed.currentContext = current;
  return parsed;
}

function firstWins(target: Map<string, Named>, entries: Named[]): void {
  for (const e of entries) if (!target.has(e.name)) target.set(e.name, e);
}

/** Merges already-read files (in order) by kubectl's rules. */
export function mergeKubeconfigs(inputs: { file: string; text: string }[]): LoadedKubeconfig {
  const clusters = new Map<string, Named>();
  const users = new Map<string, Named>();
  const contexts = new Map<string, Named>();
  let currentContext: string | undefined;
  for (const { file, text } of inputs) {
    const parsed = parseKubeconfig(text, file);
    firstWins(clusters, parsed.clusters);
    firstWins(users, parsed.users);
    firstWins(contexts, parsed.contexts);
    currentContext ??= parsed.currentContext;
  }
  const resolved: ResolvedContext[] = [];
  for (const ctx of contexts.values()) {
    const clusterName = typeof ctx.body['cluster'] === 'string' ? ctx.body['cluster'] : '';
    const userName = typeof ctx.body['user'] === 'string' ? ctx.body['user'] : '';
    const cluster = clusters.get(clusterName);
    const user = users.get(userName);
    const server = typeof cluster?.body['server'] === 'string' ? cluster.body['server'] : '';
    const info: ContextInfo = { name: ctx.name, cluster: clusterName, user: userName, server, isCurrent: ctx.name === currentContext, source: ctx.file };
    const namespace = ctx.body['namespace'];
    if (typeof namespace === 'string' && namespace !== '') info.namespace = namespace;
    const entry: ResolvedContext = { info };
    if (cluster) entry.cluster = cluster.body;
    if (user) entry.user = user.body;
    let reason: string | undefined;
    if (!clusterName) reason = `context "${ctx.name}" names no cluster`;
    else if (!cluster) reason = `context "${ctx.name}" refers to cluster "${clusterName}", which no kubeconfig file defines`;
    else if (!server) reason = `cluster "${clusterName}" has no server URL`;
    else if (userName && !user) reason = `context "${ctx.name}" refers to user "${userName}", which no kubeconfig file defines`;
    if (reason) entry.problem = new KubeConfigError(ctx.file, reason).clusterError;
    resolved.push(entry);
  }
  const loaded: LoadedKubeconfig = { files: inputs.map((i) => i.file), searched: inputs.map((i) => i.file), contexts: resolved };
  if (currentContext !== undefined) loaded.currentContext = currentContext;
  return loaded;
}

/** Reads and merges the files; missing files are skipped unless they were named explicitly. */
export function loadKubeconfigs(explicit?: string[], env: Readonly<Record<string, string | undefined>> = process.env): LoadedKubeconfig {
  const { files, required } = kubeconfigFiles(explicit, env);
  const inputs: { file: string; text: string }[] = [];
  for (const file of files) {
    if (!required && !existsSync(file)) continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new KubeConfigError(file, code === 'ENOENT' ? 'file not found' : `cannot read: ${(err as Error).message}`);
    }
    inputs.push({ file, text });
  }
  return { ...mergeKubeconfigs(inputs), searched: files };
}
