// "Configure Node Access…": a guided, multi-step quick input for one kubeconfig context (SSH user, port,
// jump host, sudo, identity file, CRI endpoint), a confirmation showing what will be written, then the
// write to the user settings (the remote machine's under Remote/code-server: the node access settings
// are machine-scoped) and an offer to test the connection with Take CRI Snapshot. Back or Escape at any
// step writes nothing.

import { open, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { NodeEntry } from '../../core/tree/contextNodes';
import type { Logger } from '../../core/util/logger';
import { CLUSTERS_SETTING } from '../../infra/ssh/nodeAccessSettings';
import { CommandIds } from '../../shared/commandIds';
import type { ClusterSession } from '../cluster/clusterSession';
import { expandPath, NODE_ACCESS_SECTION, NodeAccessKeys } from '../config/settings';
import { t } from '../l10n';
import type { TreeElement } from '../views/treeElements';
import {
  buildNodeAccessUpdate, criEndpointProblem, existingCluster, homeRelative, jumpHostProblem, looksLikePrivateKey, mergeClusters, parsePort, portProblem, userProblem,
  type CurrentNodeAccessValues, type NodeAccessAnswers, type NodeAccessUpdate,
} from './configureNodeAccessModel';
import { inputStep, pickStep, type PickItem, type StepResult } from './configureSteps';
import { errorText } from '../../core/util/errorText';

export interface ConfigureNodeAccessDeps {
  session: ClusterSession;
  logger: Logger;
}

type Identity = { kind: 'file'; path: string } | { kind: 'agent' } | { kind: 'browse' };

interface Draft {
  context: string;
  user: string;
  port: string;
  jumpHost: string;
  sudo: boolean;
  identity: Identity;
  criEndpoint: string;
}

const MAX_KEY_SIZE = 64 * 1024;

/** Private keys directly under ~/.ssh (by their first line, not their name), home-relative. */
async function findPrivateKeys(home: string): Promise<string[]> {
  const dir = join(home, '.ssh');
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  const keys: string[] = [];
  for (const name of names) {
    if (name.endsWith('.pub') || ['config', 'known_hosts', 'authorized_keys'].includes(name)) continue;
    const file = join(dir, name);
    try {
      const info = await stat(file);
      if (!info.isFile() || info.size > MAX_KEY_SIZE) continue;
      const handle = await open(file, 'r');
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
        if (looksLikePrivateKey(buffer.subarray(0, bytesRead).toString('utf8'))) keys.push(homeRelative(file, home));
      } finally {
        await handle.close();
      }
    } catch {
      // unreadable: not offered (the log would only say what the list already shows)
    }
  }
  return keys;
}

function readCurrent(): CurrentNodeAccessValues {
  const config = vscode.workspace.getConfiguration(NODE_ACCESS_SECTION);
  return {
    clusters: config.inspect(NodeAccessKeys.clusters)?.globalValue,
    identityFiles: config.inspect(NodeAccessKeys.identityFiles)?.globalValue,
    criEndpoint: config.inspect(NodeAccessKeys.criEndpoint)?.globalValue,
    useSshAgent: config.get<unknown>(NodeAccessKeys.useSshAgent) !== false,
  };
}

function initialDraft(context: string, current: CurrentNodeAccessValues, identity: Identity): Draft {
  const entry = existingCluster(current.clusters, context) ?? {};
  const text = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  return {
    context,
    user: text(entry['user']),
    port: text(entry['port']),
    jumpHost: text(entry['jumpHost']),
    sudo: entry['sudo'] === true,
    identity,
    criEndpoint: typeof current.criEndpoint === 'string' ? current.criEndpoint : '',
  };
}

function answersOf(draft: Draft): NodeAccessAnswers {
  const port = parsePort(draft.port);
  return {
    context: draft.context,
    ...(draft.user.trim() !== '' ? { user: draft.user.trim() } : {}),
    ...(typeof port === 'number' ? { port } : {}),
    ...(draft.jumpHost.trim() !== '' ? { jumpHost: draft.jumpHost.trim() } : {}),
    sudo: draft.sudo,
    ...(draft.identity.kind === 'file' ? { identityFile: draft.identity.path } : {}),
    criEndpoint: draft.criEndpoint.trim(),
  };
}

function describeUpdate(update: NodeAccessUpdate, context: string): string[] {
  const lines = [`${CLUSTERS_SETTING}[${JSON.stringify(context)}] = ${JSON.stringify(update.clusters[context])}`];
  if (update.identityFiles !== undefined) lines.push(`plegDoctor.nodeAccess.identityFiles = ${JSON.stringify(update.identityFiles)}`);
  if (update.criEndpoint !== undefined) lines.push(`plegDoctor.nodeAccess.criEndpoint = ${update.criEndpoint.value === undefined ? t('(removed: detect on the node)') : JSON.stringify(update.criEndpoint.value)}`);
  if (update.useSshAgent === true) lines.push('plegDoctor.nodeAccess.useSshAgent = true');
  return lines;
}

async function pickContext(session: ClusterSession, current: CurrentNodeAccessValues, title: string): Promise<string | undefined> {
  const names = session.model.groups().map((g) => g.name);
  if (names.length === 0) {
    void vscode.window.showInformationMessage(t('No kubeconfig contexts are loaded: pick one first with PLEG Doctor: Select Kubeconfig File…'));
    return undefined;
  }
  const items: PickItem<string>[] = names.map((name) => ({
    label: name,
    value: name,
    ...(existingCluster(current.clusters, name) !== undefined ? { description: t('node access configured') } : {}),
  }));
  const result = await pickStep({ title, step: 1, totalSteps: 8, back: false, placeholder: t('Which kubeconfig context are the nodes in?'), items });
  return result.kind === 'value' ? result.value : undefined;
}

/** The steps after the context; resolves with what to write on Save, 'back' for Back on the first step, undefined on cancel. */
async function runSteps(draft: Draft, keys: readonly string[], current: CurrentNodeAccessValues, frame: { title: string; first: number; total: number; canGoBackFirst: boolean }): Promise<NodeAccessUpdate | 'back' | undefined> {
  const ctx = draft.context;
  const at = (i: number): { title: string; step: number; totalSteps: number; back: boolean } => ({
    title: frame.title,
    step: frame.first + i,
    totalSteps: frame.total,
    back: i > 0 || frame.canGoBackFirst,
  });
  const currentFiles = Array.isArray(current.identityFiles) ? current.identityFiles.filter((f): f is string => typeof f === 'string') : [];
  const listed = new Set(currentFiles.map((f) => expandPath(f)));
  let update: NodeAccessUpdate | undefined;

  const steps: ((i: number) => Promise<StepResult<unknown>>)[] = [
    async (i) => {
      const r = await inputStep({
        ...at(i),
        prompt: t('SSH user on the nodes of {0}. Empty: the User from ~/.ssh/config, else your local user name.', ctx),
        placeholder: t('e.g. core, ubuntu, root'),
        value: draft.user,
        validate: (text) => userProblem(ctx, text),
      });
      if (r.kind === 'value') draft.user = r.value;
      return r;
    },
    async (i) => {
      const r = await inputStep({
        ...at(i),
        prompt: t('SSH port. Empty: the Port from ~/.ssh/config, else 22.'),
        placeholder: '22',
        value: draft.port,
        validate: (text) => portProblem(ctx, text),
      });
      if (r.kind === 'value') draft.port = r.value;
      return r;
    },
    async (i) => {
      const r = await inputStep({
        ...at(i),
        prompt: t('Jump host (optional): ProxyJump syntax such as ops@bastion.example.com:22, several separated by commas, or a Host alias from ~/.ssh/config. "none" ignores a ProxyJump from ~/.ssh/config. Empty: none set here.'),
        placeholder: t('e.g. ops@bastion.example.com'),
        value: draft.jumpHost,
        validate: (text) => jumpHostProblem(ctx, text),
      });
      if (r.kind === 'value') draft.jumpHost = r.value;
      return r;
    },
    async (i) => {
      const r = await pickStep<boolean>({
        ...at(i),
        placeholder: t('Use sudo to reach the CRI socket?'),
        active: draft.sudo,
        items: [
          {
            label: t('Yes: relay the socket with sudo -n'),
            detail: t('For a user other than root: the CRI socket belongs to root, so PLEG Doctor runs sudo -n socat (or sudo -n crictl) on the node. Needs a NOPASSWD sudo rule; sudo never prompts.'),
            value: true,
          },
          {
            label: t('No: the SSH user can open the socket itself'),
            detail: t('Usually root: the socket is forwarded over the SSH connection (the node needs AllowStreamLocalForwarding).'),
            value: false,
          },
        ],
      });
      if (r.kind === 'value') draft.sudo = r.value;
      return r;
    },
    async (i) => {
      for (;;) {
        const items: PickItem<Identity>[] = [
          ...keys.map((k) => ({ label: `$(key) ${k}`, value: { kind: 'file', path: k } as Identity, ...(listed.has(expandPath(k)) ? { description: t('already in the identity files') } : {}) })),
          { label: `$(folder-opened) ${t('Browse…')}`, value: { kind: 'browse' } },
          {
            label: `$(account) ${t('Use ssh-agent only')}`,
            value: { kind: 'agent' },
            description: process.env['SSH_AUTH_SOCK'] ? t('SSH_AUTH_SOCK is set') : t('SSH_AUTH_SOCK is not set where the extension runs'),
            detail: currentFiles.length > 0 ? t('Adds no key file; the identity files already listed ({0}) stay as they are.', currentFiles.length) : t('Adds no key file.'),
          },
        ];
        const activeItem = items.find((it) => it.value.kind === draft.identity.kind && (it.value.kind !== 'file' || (draft.identity.kind === 'file' && it.value.path === draft.identity.path)));
        const r = await pickStep<Identity>({ ...at(i), placeholder: t('Which private key opens the nodes of {0}?', ctx), items, ...(activeItem ? { active: activeItem.value } : {}) });
        if (r.kind !== 'value' || r.value.kind !== 'browse') {
          if (r.kind === 'value') draft.identity = r.value;
          return r;
        }
        const home = homedir();
        const picked = await vscode.window.showOpenDialog({ defaultUri: vscode.Uri.file(join(home, '.ssh')), canSelectFiles: true, canSelectFolders: false, canSelectMany: false, openLabel: t('Use This Key'), title: t('Private key for {0}', ctx) });
        const file = picked?.[0];
        if (file !== undefined) {
          draft.identity = { kind: 'file', path: homeRelative(file.fsPath, home) };
          return { kind: 'value', value: draft.identity };
        }
        // Dialog dismissed: back to the list.
      }
    },
    async (i) => {
      const r = await inputStep({
        ...at(i),
        prompt: t('CRI endpoint (optional, applies to every context). Empty: detected on the node (kubelet flag, /etc/crictl.yaml, then the well-known sockets).'),
        placeholder: 'unix:///run/containerd/containerd.sock',
        value: draft.criEndpoint,
        validate: criEndpointProblem,
      });
      if (r.kind === 'value') draft.criEndpoint = r.value;
      return r;
    },
    async (i) => {
      update = buildNodeAccessUpdate(current, answersOf(draft), (p) => expandPath(p));
      const where = vscode.env.remoteName !== undefined ? t('remote user settings ({0})', vscode.env.remoteName) : t('user settings');
      const r = await pickStep<boolean>({
        ...at(i),
        placeholder: t('Write these node access settings for {0} to the {1}?', ctx, where),
        items: [
          { label: `$(check) ${t('Save')}`, description: where, detail: describeUpdate(update, ctx).join('  ·  '), value: true },
          { label: `$(close) ${t('Cancel')}`, detail: t('Nothing is written.'), value: false },
        ],
      });
      return r.kind === 'value' && !r.value ? { kind: 'cancel' } : r;
    },
  ];

  let i = 0;
  while (i < steps.length) {
    const r = await steps[i]!(i);
    if (r.kind === 'cancel') return undefined;
    if (r.kind === 'back') {
      if (i === 0) return 'back';
      i -= 1;
    } else i += 1;
  }
  return update;
}

async function write(update: NodeAccessUpdate): Promise<void> {
  const config = vscode.workspace.getConfiguration(NODE_ACCESS_SECTION);
  const global = vscode.ConfigurationTarget.Global;
  await config.update(NodeAccessKeys.clusters, update.clusters, global);
  if (update.identityFiles !== undefined) await config.update(NodeAccessKeys.identityFiles, update.identityFiles, global);
  if (update.criEndpoint !== undefined) await config.update(NodeAccessKeys.criEndpoint, update.criEndpoint.value, global);
  if (update.useSshAgent === true) await config.update(NodeAccessKeys.useSshAgent, true, global);
}

export function openSettingsJson(): Thenable<unknown> {
  // Machine-scoped settings of a remote window live in the remote's settings.json, not the local one.
  return vscode.commands.executeCommand(vscode.env.remoteName !== undefined ? 'workbench.action.openRemoteSettingsFile' : 'workbench.action.openSettingsJson');
}

async function testConnection(session: ClusterSession, context: string): Promise<void> {
  const group = session.model.groups().find((g) => g.name === context);
  const rows: readonly NodeEntry[] = group?.rows() ?? [];
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(t('No nodes of {0} are loaded yet: open the PLEG Doctor view and wait for the nodes to appear.', context));
    return;
  }
  const picked = await vscode.window.showQuickPick(
    rows.map((entry) => ({ label: entry.name, entry })),
    { title: t('Test Connection'), placeHolder: t('Pick a node of {0}: PLEG Doctor takes a CRI snapshot of it', context) },
  );
  if (picked !== undefined) await vscode.commands.executeCommand(CommandIds.takeCriSnapshot, picked.entry);
}

export async function configureNodeAccess(element: TreeElement | undefined, deps: ConfigureNodeAccessDeps): Promise<void> {
  const { logger } = deps;
  const title = t('Configure Node Access');
  const current = readCurrent();
  const preselected = element?.kind === 'node' ? element.context : element?.kind === 'context' ? element.name : undefined;
  const keys = await findPrivateKeys(homedir());
  const listedFiles = Array.isArray(current.identityFiles) ? current.identityFiles.filter((f): f is string => typeof f === 'string').map((f) => expandPath(f)) : [];
  const known = keys.find((k) => listedFiles.includes(expandPath(k)));
  const identity: Identity = known !== undefined ? { kind: 'file', path: known } : { kind: 'agent' };

  let context: string | undefined;
  let update: NodeAccessUpdate | undefined;
  try {
    // A clusters value that is not an object cannot be merged into: say so before asking anything.
    mergeClusters(current.clusters, { context: '', sudo: false, criEndpoint: '' });
    for (;;) {
      context = preselected ?? (await pickContext(deps.session, current, title));
      if (context === undefined) break;
      const outcome = await runSteps(initialDraft(context, current, identity), keys, current, {
        title: `${title}: ${context}`,
        first: preselected === undefined ? 2 : 1,
        total: preselected === undefined ? 8 : 7,
        canGoBackFirst: preselected === undefined,
      });
      // Back on the first step returns to the context pick (when there was one).
      if (outcome === 'back' && preselected === undefined) continue;
      if (outcome !== 'back') update = outcome;
      break;
    }
    if (update === undefined || context === undefined) {
      logger.info('configure node access: cancelled, nothing written');
      return;
    }
    await write(update);
  } catch (error) {
    const message = errorText(error);
    logger.error(`configure node access${context !== undefined ? ` for context ${context}` : ''}: ${message}`);
    const openJson = t('Open Settings (JSON)');
    if ((await vscode.window.showErrorMessage(t('Configure Node Access: {0}', message), openJson)) === openJson) await openSettingsJson();
    return;
  }

  const remote = vscode.env.remoteName;
  logger.info(`configure node access: saved for context ${context} in the ${remote !== undefined ? `remote (${remote}) ` : ''}user settings: ${describeUpdate(update, context).join('; ')}`);
  const testLabel = t('Test Connection');
  const openJson = t('Open Settings (JSON)');
  const message =
    remote !== undefined
      ? t('Node access for {0} saved in the remote user settings ({1}): with Remote or code-server, machine-scoped settings live where the extension runs.', context, remote)
      : t('Node access for {0} saved in your user settings.', context);
  const picked = await vscode.window.showInformationMessage(message, testLabel, openJson);
  if (picked === testLabel) await testConnection(deps.session, context);
  else if (picked === openJson) await openSettingsJson();
}
