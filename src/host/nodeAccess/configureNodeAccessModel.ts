// The pure half of "Configure Node Access…": each answer checked by the settings validator itself (so the
// guided flow and a hand-edited settings.json can never disagree), and the answers merged into the values
// the user already has. Nothing here touches VS Code or the disk, so it is unit-tested directly.

import { endpointToSocketPath } from '../../infra/cri/endpoints';
import { CLUSTERS_SETTING, validateNodeAccessClusters } from '../../infra/ssh/nodeAccessSettings';

/** What the user answered for one kubeconfig context. Empty text fields are undefined ("not set"). */
export interface NodeAccessAnswers {
  context: string;
  user?: string;
  port?: number;
  jumpHost?: string;
  sudo: boolean;
  /** A key file to add to plegDoctor.nodeAccess.identityFiles; undefined = ssh-agent only (add nothing). */
  identityFile?: string;
  /** "" = detect the socket on the node. */
  criEndpoint: string;
}

/** The raw values as they are in the user (or remote user) settings, before the flow. */
export interface CurrentNodeAccessValues {
  clusters: unknown;
  identityFiles: unknown;
  criEndpoint: unknown;
  /** The effective value (default true). */
  useSshAgent: boolean;
}

/** What to write; a key that is absent is left as it is. `criEndpoint: undefined` removes the setting. */
export interface NodeAccessUpdate {
  clusters: Record<string, unknown>;
  identityFiles?: string[];
  criEndpoint?: { value: string | undefined };
  useSshAgent?: true;
}

type ClusterField = 'user' | 'port' | 'jumpHost';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Runs one field through validateNodeAccessClusters and returns its complaint without the long setting
 * path in front ("user must be a user name …"), or undefined when the value is accepted.
 */
function fieldProblem(context: string, field: ClusterField, value: unknown): string | undefined {
  const { problems } = validateNodeAccessClusters({ [context]: { [field]: value } });
  const first = problems[0];
  if (first === undefined) return undefined;
  const prefix = `${CLUSTERS_SETTING}[${JSON.stringify(context)}].`;
  return first.message.startsWith(prefix) ? first.message.slice(prefix.length) : first.message;
}

/** Empty is allowed for every optional field: it means "not set" (ssh_config or the default decides). */
export function userProblem(context: string, text: string): string | undefined {
  return text.trim() === '' ? undefined : fieldProblem(context, 'user', text.trim());
}

/** Digits become a number; anything else is handed over as written, so the validator can quote it. */
export function parsePort(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export function portProblem(context: string, text: string): string | undefined {
  const port = parsePort(text);
  return port === undefined ? undefined : fieldProblem(context, 'port', port);
}

export function jumpHostProblem(context: string, text: string): string | undefined {
  return text.trim() === '' ? undefined : fieldProblem(context, 'jumpHost', text.trim());
}

/** The same rule the endpoint detection uses: a unix socket (unix:///path, unix:/path or /path). */
export function criEndpointProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || endpointToSocketPath(trimmed) !== undefined) return undefined;
  return `must be a unix socket such as unix:///run/containerd/containerd.sock, got ${JSON.stringify(trimmed)}`;
}

/** The first problem among all answers (the UI checks each as it is typed; this guards the whole). */
export function answersProblem(answers: NodeAccessAnswers): string | undefined {
  return (
    (answers.user !== undefined ? userProblem(answers.context, answers.user) : undefined) ??
    (answers.port !== undefined ? fieldProblem(answers.context, 'port', answers.port) : undefined) ??
    (answers.jumpHost !== undefined ? jumpHostProblem(answers.context, answers.jumpHost) : undefined) ??
    criEndpointProblem(answers.criEndpoint)
  );
}

/** The context's entry as it stands, when it is an object (the flow's defaults come from it). */
export function existingCluster(clusters: unknown, context: string): Record<string, unknown> | undefined {
  if (!isPlainObject(clusters)) return undefined;
  const entry = clusters[context];
  return isPlainObject(entry) ? entry : undefined;
}

export class UnmergeableSettingsError extends Error {}

/**
 * The new clusters value: every other context untouched, and in this context the four answered keys
 * replaced (an empty answer removes the key) while hostTemplate, the per-node entries and anything else
 * the user wrote stay as they were.
 */
export function mergeClusters(clusters: unknown, answers: NodeAccessAnswers): Record<string, unknown> {
  if (clusters !== undefined && clusters !== null && !isPlainObject(clusters)) {
    throw new UnmergeableSettingsError(`${CLUSTERS_SETTING} is not an object (it is ${Array.isArray(clusters) ? 'an array' : typeof clusters}); fix it in settings.json first`);
  }
  const previous = existingCluster(clusters, answers.context) ?? {};
  const entry: Record<string, unknown> = { ...previous };
  const set = (field: ClusterField, value: string | number | undefined): void => {
    if (value === undefined) delete entry[field];
    else entry[field] = value;
  };
  set('user', answers.user);
  set('port', answers.port);
  set('jumpHost', answers.jumpHost);
  entry['sudo'] = answers.sudo;
  return { ...(isPlainObject(clusters) ? clusters : {}), [answers.context]: entry };
}

/** Adds `file` to the list unless it is already there (compared after `expand`, so `~/k` equals `/home/u/k`). */
export function mergeIdentityFiles(identityFiles: unknown, file: string, expand: (path: string) => string): string[] | undefined {
  const current = Array.isArray(identityFiles) ? identityFiles.filter((f): f is string => typeof f === 'string') : [];
  const wanted = expand(file);
  if (current.some((f) => f.trim() !== '' && expand(f) === wanted)) return undefined;
  return [...current, file];
}

/** `/home/u/.ssh/k` → `~/.ssh/k`, so the setting reads the same on another machine with another home. */
export function homeRelative(file: string, home: string): string {
  const prefix = home.endsWith('/') ? home : `${home}/`;
  return file.startsWith(prefix) ? `~/${file.slice(prefix.length)}` : file;
}

/** Everything the flow will write, computed from the answers and the current raw values. */
export function buildNodeAccessUpdate(current: CurrentNodeAccessValues, answers: NodeAccessAnswers, expand: (path: string) => string): NodeAccessUpdate {
  const problem = answersProblem(answers);
  if (problem !== undefined) throw new Error(problem);
  const update: NodeAccessUpdate = { clusters: mergeClusters(current.clusters, answers) };
  if (answers.identityFile !== undefined) {
    const files = mergeIdentityFiles(current.identityFiles, answers.identityFile, expand);
    if (files !== undefined) update.identityFiles = files;
  } else if (!current.useSshAgent) {
    // "ssh-agent only" with the agent switched off could never authenticate.
    update.useSshAgent = true;
  }
  const endpoint = answers.criEndpoint.trim();
  const before = typeof current.criEndpoint === 'string' ? current.criEndpoint.trim() : '';
  if (endpoint !== before) update.criEndpoint = { value: endpoint === '' ? undefined : endpoint };
  return update;
}

/** The first bytes of a file under ~/.ssh: is it a private key (PEM or OpenSSH format)? */
export function looksLikePrivateKey(head: string): boolean {
  return /^-----BEGIN (?:OPENSSH |RSA |EC |DSA |ENCRYPTED )?PRIVATE KEY-----/.test(head.trimStart());
}
