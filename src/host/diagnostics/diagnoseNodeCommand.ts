// "Diagnose Node": node row (or quick pick) → evidence from the API server, the kubelet through the node
// proxy and, when allowed, the node through its way (the agent's last snapshot, SSH, or a debug pod the
// user confirmed: the snapshot only); the kubelet's log over the same SSH access or its NodeLogQuery
// (collectNodeEvidence, cancellable progress) → the pure
// checks (diagnose) → a Markdown report document with its preview, and a notification with the headline.
// Nothing here changes the cluster or the node: remediation is text in the report.

import * as vscode from 'vscode';
import type { Diagnosis } from '../../core/diagnose/diagnosis';
import { EVIDENCE_SOURCES, type NodeEvidence, type NodeSideEvidence } from '../../core/diagnose/evidence';
import { renderDiagnosisMarkdown } from '../../core/diagnose/report/renderMarkdown';
import { diagnose } from '../../core/diagnose/runDiagnosis';
import type { NodeEntry } from '../../core/tree/contextNodes';
import type { Logger } from '../../core/util/logger';
import { collectNodeEvidence, evidenceTarget, type CollectEvidenceOptions, type EvidenceStage } from '../../infra/diagnose/collectEvidence';
import { defaultKubeletLogPlan, type KubeletLogPlan } from '../../infra/diagnose/collectKubeletLog';
import { nodeSideEvidence } from '../../infra/diagnose/nodeSideEvidence';
import { agentNodeSideEvidence, readAgentSnapshot } from '../../infra/nodeAccess/agent/agentSnapshot';
import { wayLabel } from '../../core/nodeAccess/accessWay';
import { problemsBlocking } from '../../infra/ssh/nodeAccessSettings';
import { CommandIds } from '../../shared/commandIds';
import type { ClusterSession } from '../cluster/clusterSession';
import { readNodeAccessConfig } from '../config/settings';
import { loadNodeAccessBundle } from '../bundles/loader';
import { t } from '../l10n';
import type { NodeAccessRuntime } from '../nodeAccess/nodeAccessRuntime';
import { pickNode } from '../nodeAccess/nodePicker';
import { resolveNodeAccess, snapshotThroughDebugPod, type ResolvedAccess } from '../nodeAccess/editorNodeAccess';
import type { DiagnosisResults } from '../views/diagnosisChildren';
import type { TreeElement } from '../views/treeElements';
import { readDiagnosticsConfig } from './diagnosticsConfig';
import { DIAGNOSTICS_SECTION, decideNodeSide, type DiagnosticsConfig } from './diagnosticsSettings';
import { diagnosisNotification, diagnosisStageMessage } from './diagnosisPresentation';
import type { ReportDocuments } from './reportDocuments';
import { errorText } from '../../core/util/errorText';

export interface DiagnoseNodeDeps {
  session: ClusterSession;
  nodeAccess: NodeAccessRuntime;
  documents: ReportDocuments;
  logger: Logger;
  /** Where the tree reads each node's last diagnosis from. */
  results?: DiagnosisResults;
}

export type Outcome = { kind: 'done'; evidence: NodeEvidence } | { kind: 'cancelled' } | { kind: 'failed'; error: unknown };


export type NodeSidePlan = { nodeSide: (signal: AbortSignal) => Promise<NodeSideEvidence>; viaSsh: boolean } | { nodeSideSkipReason: string };

/** Today's node side over SSH (the settings decide whether it runs); `reachedBy` names the host. */
function sshNodeSide(entry: NodeEntry, deps: DiagnoseNodeDeps, report: (message: string) => void): (signal: AbortSignal) => Promise<NodeSideEvidence> {
  return async (signal) => {
    const access = readNodeAccessConfig();
    // A mistyped host or port must not send the connection elsewhere: the node side fails instead.
    const blocking = problemsBlocking(access.problems, entry.context, entry.name);
    if (blocking.length > 0) throw new Error(`the node access settings have problems: ${blocking.map((p) => p.message).join('; ')}`);
    const loaded = await deps.nodeAccess.load();
    const result = await loaded.run(
      loaded.pools,
      {
        entry,
        config: access.config,
        probes: true,
        signal,
        purpose: 'diagnosis',
        onStage: (stage, host) => report(`${diagnosisStageMessage('node', t)} ${loaded.stageMessage(stage, host)}`),
      },
      deps.logger,
    );
    return nodeSideEvidence(result.report, wayLabel('ssh', result.report.host));
  };
}

/**
 * The node side as collectNodeEvidence wants it, or why it is skipped, through the way diagnosisAccess
 * chose (none when the node side is "never").
 * Errors the node side throws become the source's `failed` status.
 */
export function planNodeSide(entry: NodeEntry, config: DiagnosticsConfig, deps: DiagnoseNodeDeps, access: ResolvedAccess | undefined, report: (message: string) => void): NodeSidePlan {
  if (access === undefined) {
    // diagnosisAccess looks for no way only when the node side is "never": the setting is the reason.
    const decision = decideNodeSide(config.nodeSide, entry.context, false);
    return { nodeSideSkipReason: decision.run ? 'no way to the node was chosen' : decision.reason };
  }
  switch (access.way) {
    case 'ssh':
      return { nodeSide: sshNodeSide(entry, deps, report), viaSsh: true };
    case 'agent':
      return {
        nodeSide: async (signal) => {
          report(`${diagnosisStageMessage('node', t)} ${t("Reading the agent's last snapshot…")}`);
          const taken = await readAgentSnapshot(access.connection, signal);
          deps.logger.info(`diagnosis of node ${entry.name}: node side ${taken.label} (${taken.collectedAt})`);
          return agentNodeSideEvidence(taken, access.connection);
        },
        viaSsh: false,
      };
    case 'debug-pod':
      return {
        nodeSide: async (signal) => {
          report(`${diagnosisStageMessage('node', t)} ${t('Running the debug pod…')}`);
          const { access: pod, ...taken } = await snapshotThroughDebugPod(access, signal, deps.logger);
          // The pod has no hostPID (core/nodeAccess/debugPodSpec.ts): it reads the CRI socket, not the node's processes.
          return nodeSideEvidence(taken, `${pod.label}: the CRI snapshot only, no probes (the debug pod has no hostPID)`);
        },
        viaSsh: false,
      };
    case 'declined':
    case 'none':
      return { nodeSideSkipReason: access.why };
    case 'cancelled':
      return { nodeSideSkipReason: 'cancelled' };
  }
}

/**
 * The kubelet log's ways for this node: journalctl over the node access (only where the node side may
 * run, so the same consent covers both), and the kubelet's NodeLogQuery when the node proxy is used.
 */
export function planKubeletLog(entry: NodeEntry, config: DiagnosticsConfig, deps: DiagnoseNodeDeps, nodeSideRuns: boolean): KubeletLogPlan {
  const plan = defaultKubeletLogPlan(config.proxyTimeoutMs, config.useNodeProxy);
  if (!nodeSideRuns) return plan;
  plan.ssh = async (fetch) => {
    const access = readNodeAccessConfig();
    const blocking = problemsBlocking(access.problems, entry.context, entry.name);
    if (blocking.length > 0) throw new Error(`the node access settings have problems: ${blocking.map((p) => p.message).join('; ')}`);
    const loaded = await deps.nodeAccess.load();
    const bundle = await loadNodeAccessBundle();
    const { outcome } = await bundle.fetchKubeletJournalOverSsh(loaded.pools, { entry, config: access.config, window: fetch.window, timeoutMs: fetch.timeoutMs, maxBytes: fetch.maxBytes, signal: fetch.signal });
    return outcome;
  };
  return plan;
}

/**
 * The way to the node's side for a diagnosis (Diagnose Node, Export Evidence Bundle), chosen before the
 * collection starts: a debug pod is asked for in a modal first. Undefined when the node side is "never".
 */
export async function diagnosisAccess(entry: NodeEntry, config: DiagnosticsConfig, deps: DiagnoseNodeDeps): Promise<ResolvedAccess | undefined> {
  if (config.nodeSide === 'never') return undefined;
  return resolveNodeAccess(entry, {
    session: deps.session,
    logger: deps.logger,
    purpose: 'diagnosis',
    title: t('Diagnosing {0}', entry.name),
    supports: ['agent', 'ssh', 'debug-pod'],
    sshWithoutEntry: config.nodeSide === 'always',
  });
}

/** Collects one node's evidence under a cancellable progress notification (also used by Export Evidence Bundle). */
export async function collect(entry: NodeEntry, config: DiagnosticsConfig, deps: DiagnoseNodeDeps, onRawBody?: CollectEvidenceOptions['onRawBody'], access?: ResolvedAccess): Promise<Outcome> {
  const { logger } = deps;
  const node = entry.name;
  const gateway = deps.session.kube;
  if (gateway === undefined) return { kind: 'failed', error: new Error('the kubeconfig is not loaded yet') };
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Diagnosing {0}', node), cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const cancelled = new Promise<Outcome>((resolve) => controller.signal.addEventListener('abort', () => resolve({ kind: 'cancelled' }), { once: true }));
    const subscription = token.onCancellationRequested(() => {
      logger.info(`diagnosis of node ${node}: cancel requested`);
      controller.abort(new Error('cancelled by the user'));
    });
    const started = performance.now();
    const nodeSide = planNodeSide(entry, config, deps, access, (message) => progress.report({ message }));
    if ('nodeSideSkipReason' in nodeSide) logger.info(`diagnosis of node ${node}: node side skipped: ${nodeSide.nodeSideSkipReason}`);
    if (config.useNodeProxy) logger.info(`diagnosis of node ${node}: reading the kubelet through the API server's node proxy (needs get on nodes/proxy, which is not a read-only permission)`);
    try {
      const collecting = collectNodeEvidence({
        ...evidenceTarget(gateway, entry.context, entry.node, config),
        ...nodeSide,
        kubeletLog: planKubeletLog(entry, config, deps, 'viaSsh' in nodeSide && nodeSide.viaSsh),
        logger,
        signal: controller.signal,
        ...(onRawBody !== undefined ? { onRawBody } : {}),
        onStage: (stage: EvidenceStage) => {
          logger.info(`diagnosis of node ${node}: ${stage} (${Math.round(performance.now() - started)} ms)`);
          progress.report({ message: diagnosisStageMessage(stage, t) });
        },
      }).then(
        (evidence): Outcome => ({ kind: 'done', evidence }),
        (error: unknown): Outcome => (controller.signal.aborted ? { kind: 'cancelled' } : { kind: 'failed', error }),
      );
      // Cancel ends the command at once; collection stops on its own within its own bound.
      const outcome = await Promise.race([collecting, cancelled]);
      if (outcome.kind === 'cancelled') {
        logger.info(`diagnosis of node ${node}: cancelled after ${Math.round(performance.now() - started)} ms`);
        void collecting.then((late) => {
          if (late.kind === 'failed') logger.debug(`diagnosis of node ${node}: after the cancel: ${errorText(late.error)}`);
        });
      } else if (outcome.kind === 'done') {
        logEvidence(outcome.evidence, logger, performance.now() - started);
      }
      return outcome;
    } finally {
      subscription.dispose();
    }
  });
}

function logEvidence(evidence: NodeEvidence, logger: Logger, ms: number): void {
  const node = evidence.nodeName;
  for (const source of EVIDENCE_SOURCES) {
    const fetched = evidence[source];
    const line = `diagnosis of node ${node}: ${source} ${fetched.status}`;
    switch (fetched.status) {
      case 'ok':
        logger.info(`${line} (${Math.round(fetched.ms)} ms)`);
        break;
      case 'skipped':
        logger.info(`${line}: ${fetched.reason}`);
        break;
      case 'timeout':
        logger.warn(`${line} after ${Math.round(fetched.ms)} ms (deadline ${fetched.deadlineMs} ms)`);
        break;
      case 'forbidden':
      case 'unavailable':
      case 'failed':
        logger.warn(`${line} (${Math.round(fetched.ms)} ms): ${fetched.message}`);
        break;
    }
  }
  logger.info(`diagnosis of node ${node}: evidence collected in ${Math.round(ms)} ms`);
}

function logDiagnosis(diagnosis: Diagnosis, logger: Logger): void {
  const node = diagnosis.nodeName;
  logger.info(`diagnosis of node ${node}: ${diagnosis.headline}`);
  for (const f of diagnosis.findings) {
    const line = `diagnosis of node ${node}: ${f.severity} [${f.checkId}] ${f.title}`;
    if (f.severity === 'info') logger.info(line);
    else logger.warn(line);
  }
  for (const c of diagnosis.checks) logger.debug(`diagnosis of node ${node}: check ${c.checkId} ${c.status}${c.note !== undefined ? `: ${c.note}` : ''}`);
  for (const gap of diagnosis.gaps) logger.info(`diagnosis of node ${node}: not collected: ${gap}`);
}

export async function showError(message: string, ...actions: Array<'showLog' | 'settings'>): Promise<void> {
  const labels = { showLog: t('Show Log'), settings: t('Open Settings') };
  const picked = await vscode.window.showErrorMessage(message, ...actions.map((a) => labels[a]));
  if (picked === labels.showLog) await vscode.commands.executeCommand(CommandIds.showLog);
  else if (picked === labels.settings) await vscode.commands.executeCommand('workbench.action.openSettings', DIAGNOSTICS_SECTION);
}

export async function diagnoseNode(element: TreeElement | undefined, deps: DiagnoseNodeDeps): Promise<void> {
  const entry = element?.kind === 'node' ? element : await pickNode(deps.session, t('Diagnose Node'));
  if (entry === undefined) return;
  const { logger } = deps;
  const node = entry.name;
  logger.info(`diagnosis of node ${node} (context ${entry.context}) requested`);

  const { config, problems } = readDiagnosticsConfig();
  if (problems.length > 0) {
    for (const p of problems) logger.error(`diagnosis of node ${node}: ${p.message}`);
    await showError(t('Diagnosis of {0}: fix the diagnostics settings first: {1}', node, problems.map((p) => p.message).join('; ')), 'settings');
    return;
  }
  logger.info(
    `diagnosis of node ${node}: node proxy ${config.useNodeProxy ? 'on' : 'off'}, proxy timeout ${config.proxyTimeoutMs} ms, metrics interval ${config.metricsIntervalMs} ms, node side ${config.nodeSide}`,
  );

  const access = await diagnosisAccess(entry, config, deps);
  if (access?.way === 'cancelled') {
    void vscode.window.showInformationMessage(t('Diagnosis of {0} cancelled', node));
    return;
  }
  const outcome = await collect(entry, config, deps, undefined, access);
  if (outcome.kind === 'cancelled') {
    void vscode.window.showInformationMessage(t('Diagnosis of {0} cancelled', node));
    return;
  }
  if (outcome.kind === 'failed') {
    logger.error(`diagnosis of node ${node} failed: ${errorText(outcome.error)}`);
    await showError(t('Diagnosis of {0} failed: {1}', node, errorText(outcome.error)), 'showLog');
    return;
  }

  let rendered: { diagnosis: Diagnosis; markdown: string };
  try {
    const diagnosis = diagnose(outcome.evidence);
    rendered = { diagnosis, markdown: renderDiagnosisMarkdown(diagnosis) };
  } catch (error) {
    // The checks are pure: an exception here is a bug, reported with the evidence still in the log.
    logger.error(`diagnosis of node ${node}: the checks failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await showError(t('Diagnosis of {0} failed: {1}', node, errorText(error)), 'showLog');
    return;
  }
  logDiagnosis(rendered.diagnosis, logger);
  deps.results?.set(rendered.diagnosis);
  await deps.documents.openReport(entry.context, node, rendered.diagnosis.collectedAt, rendered.markdown);
  const note = diagnosisNotification(rendered.diagnosis, t);
  if (note.severity === 'info') void vscode.window.showInformationMessage(note.message);
  else void vscode.window.showWarningMessage(note.message, t('Show Log')).then((picked) => (picked !== undefined ? vscode.commands.executeCommand(CommandIds.showLog) : undefined));
}
