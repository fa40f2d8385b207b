// Typed access to the plegDoctor.* settings declared in package.json `contributes.configuration`.

import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { validateNodeAccessConfig, type NodeAccessConfig, type NodeAccessSettingsProblem } from '../../infra/ssh/nodeAccessSettings';
import { parseAccessWaySettings, type AccessWaySettings } from '../../core/nodeAccess/accessWaySettings';

export const SECTION = 'plegDoctor';

export const SettingKeys = {
  kubeconfig: 'kubeconfig',
  showOnlyUnhealthy: 'showOnlyUnhealthy',
  contextsExclude: 'contexts.exclude',
} as const;

/** The node access settings, all under `plegDoctor.nodeAccess`. */
export const NODE_ACCESS_SECTION = `${SECTION}.nodeAccess`;
export const NodeAccessKeys = {
  clusters: 'clusters',
  identityFiles: 'identityFiles',
  sshConfigFile: 'sshConfigFile',
  criEndpoint: 'criEndpoint',
  transport: 'transport',
  callTimeoutMs: 'callTimeoutMs',
  probes: 'probes',
  useSshAgent: 'useSshAgent',
} as const;

/** The node access settings that are not SSH's, also under `plegDoctor.nodeAccess`. */
export const AccessWayKeys = {
  ways: 'ways',
  agentNamespace: 'agentNamespace',
  debugPodNamespace: 'debugPod.namespace',
  debugPodImage: 'debugPod.image',
} as const;

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

/** `~` and `${env:NAME}` are expanded so users can share settings across machines. */
export function expandPath(p: string, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  let out = p.trim().replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => env[name] ?? '');
  if (out === '~') out = home;
  else if (out.startsWith('~/')) out = path.join(home, out.slice(2));
  return path.resolve(out);
}

export interface Settings {
  /** Empty means: KUBECONFIG, else ~/.kube/config. */
  kubeconfigPaths: string[];
  showOnlyUnhealthy: boolean;
  excludedContexts: string[];
}

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    kubeconfigPaths: stringList(config.get<unknown>(SettingKeys.kubeconfig)).map((p) => expandPath(p)),
    showOnlyUnhealthy: config.get<boolean>(SettingKeys.showOnlyUnhealthy) === true,
    excludedContexts: stringList(config.get<unknown>(SettingKeys.contextsExclude)),
  };
}

/** Writes where the user's effective value comes from (workspace if set there, else user settings). */
export async function updateSetting(key: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect(key);
  const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update(key, value, target);
}

/** Reads and validates every plegDoctor.nodeAccess.* value; problems name the exact setting path. */
export function readNodeAccessConfig(): { config: NodeAccessConfig; problems: NodeAccessSettingsProblem[] } {
  const config = vscode.workspace.getConfiguration(NODE_ACCESS_SECTION);
  const raw: Record<string, unknown> = {};
  for (const key of Object.values(NodeAccessKeys)) raw[key] = config.get<unknown>(key);
  return validateNodeAccessConfig(raw);
}

/** plegDoctor.nodeAccess.{ways,agentNamespace,debugPod.*}: which ways reach a node's side, and where. */
export function readAccessWaySettings(): { settings: AccessWaySettings; problems: string[] } {
  const config = vscode.workspace.getConfiguration(NODE_ACCESS_SECTION);
  return parseAccessWaySettings({
    ways: config.get<unknown>(AccessWayKeys.ways),
    agentNamespace: config.get<unknown>(AccessWayKeys.agentNamespace),
    debugPodNamespace: config.get<unknown>(AccessWayKeys.debugPodNamespace),
    debugPodImage: config.get<unknown>(AccessWayKeys.debugPodImage),
  });
}
