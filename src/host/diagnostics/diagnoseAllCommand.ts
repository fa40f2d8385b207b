// "Diagnose All NotReady Nodes": every node of every loaded context that is NotReady now or flapped in the
// last 30 min (Ready only for a moment), diagnosed from the API tier (the Node, its events and pod count,
// the kubelet through the node proxy; no SSH, so twenty nodes never mean twenty host-key prompts), a few at
// a time. Each result goes under its node in the tree as it arrives; the progress notification counts
// them and its Cancel stops everything at once. At the end the fleet report opens (one row per node,
// grouped by cause, each linking to its report) and a notification names the nodes with a failing check.

import * as vscode from 'vscode';
import { renderFleetReport, type FleetOutcome, type FleetRow } from '../../core/diagnose/report/renderFleet';
import { renderDiagnosisMarkdown } from '../../core/diagnose/report/renderMarkdown';
import { entryFlaps, entryNeedsAttention, type NodeEntry } from '../../core/tree/contextNodes';
import { anyCheckFails } from '../../core/diagnose/verdicts';
import { isNotReady } from '../../core/tree/verdictPresentation';
import { isFlapping } from '../../core/tree/flapHistory';
import type { Logger } from '../../core/util/logger';
import { errorText } from '../../core/util/errorText';
import { collectNodeEvidence, evidenceTarget } from '../../infra/diagnose/collectEvidence';
import { defaultKubeletLogPlan } from '../../infra/diagnose/collectKubeletLog';
import { DEFAULT_MANY_CONCURRENCY, diagnoseMany, type ManyOutcome } from '../../infra/diagnose/diagnoseMany';
import { CommandIds } from '../../shared/commandIds';
import type { ClusterSession } from '../cluster/clusterSession';
import { t } from '../l10n';
import type { DiagnosisResults } from '../views/diagnosisChildren';
import { readDiagnosticsConfig } from './diagnosticsConfig';
import type { ReportDocuments } from './reportDocuments';

export interface DiagnoseAllDeps {
  session: ClusterSession;
  results: DiagnosisResults;
  logger: Logger;
  /** Where the node reports and the fleet report are kept and shown; absent in tests of the run alone. */
  documents?: ReportDocuments;
}

/**
 * Every node NotReady now or at any time in the flap window (a flapping node Ready for a moment included).
 * A node only at risk (Ready, PLEGAtRisk=True) is not NotReady: the tree's unhealthy filter shows it, this
 * command leaves it to Diagnose Node.
 */
export function notReadyEntries(session: ClusterSession, now = new Date()): NodeEntry[] {
  return session.model.groups().flatMap((group) => group.rows().filter((entry) => entryNeedsAttention(entry, now) && (isNotReady(entry.classification.verdict) || isFlapping(entryFlaps(entry, now)))));
}

export async function diagnoseAllNotReady(deps: DiagnoseAllDeps): Promise<void> {
  const { logger, session, results } = deps;
  const gateway = session.kube;
  if (gateway === undefined) {
    void vscode.window.showErrorMessage(t('Diagnose All NotReady Nodes: the kubeconfig is not loaded yet'));
    return;
  }
  const { config, problems } = readDiagnosticsConfig();
  if (problems.length > 0) {
    void vscode.window.showErrorMessage(t('Diagnose All NotReady Nodes: fix the diagnostics settings first: {0}', problems.map((p) => p.message).join('; ')));
    return;
  }
  const targets = notReadyEntries(session);
  if (targets.length === 0) {
    void vscode.window.showInformationMessage(t('No NotReady nodes to diagnose.'));
    return;
  }
  logger.info(`diagnose all: ${targets.length} NotReady nodes, ${DEFAULT_MANY_CONCURRENCY} at a time, API tier only (no SSH)`);
  const started = performance.now();
  const startedAt = new Date();
  const failing: string[] = [];
  const failed: string[] = [];
  const fleet: FleetRow[] = [];
  const rowOf = (entry: NodeEntry, outcome: FleetOutcome): FleetRow => {
    const flaps = entryFlaps(entry, startedAt);
    return { context: entry.context, node: entry.name, verdictNow: entry.classification.verdict, ...(flaps !== undefined ? { flaps } : {}), outcome };
  };
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Diagnosing {0} NotReady nodes', targets.length), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => {
        logger.info('diagnose all: cancel requested');
        controller.abort(new Error('cancelled by the user'));
      });
      try {
        return await diagnoseMany({
          nodes: targets,
          concurrency: DEFAULT_MANY_CONCURRENCY,
          signal: controller.signal,
          collect: (entry, signal) =>
            collectNodeEvidence({
              ...evidenceTarget(gateway, entry.context, entry.node, config),
              nodeSideSkipReason: 'Diagnose All NotReady Nodes reads the API tier only; run Diagnose Node on this node for the node side',
              // The API tier only: the kubelet's NodeLogQuery where it serves one, never SSH.
              kubeletLog: defaultKubeletLogPlan(config.proxyTimeoutMs, true),
              logger,
              signal,
            }),
          onResult: (result: ManyOutcome<NodeEntry>, done, total) => {
            const label = `${result.node.context}/${result.node.name}`;
            if (result.kind === 'done') {
              results.set(result.diagnosis);
              if (anyCheckFails(result.diagnosis)) failing.push(result.node.name);
              const d = result.diagnosis;
              const uri = deps.documents?.store(d.context, d.nodeName, d.collectedAt, renderDiagnosisMarkdown(d));
              fleet.push(rowOf(result.node, { kind: 'done', diagnosis: d, ...(uri !== undefined ? { reportLink: uri.toString() } : {}) }));
              logger.info(`diagnose all: ${label}: ${result.diagnosis.headline} (${result.ms} ms)`);
            } else {
              failed.push(result.node.name);
              fleet.push(rowOf(result.node, { kind: 'failed', error: String(result.error) }));
              logger.warn(`diagnose all: ${label} could not be diagnosed: ${result.error}`);
            }
            progress.report({ message: t('{0} of {1} done', done, total), increment: 100 / total });
          },
        });
      } finally {
        subscription.dispose();
      }
    },
  );
  const ms = Math.round(performance.now() - started);
  logger.info(`diagnose all: ${outcome.outcomes.length} of ${targets.length} diagnosed in ${ms} ms${outcome.cancelled ? ' (cancelled)' : ''}`);
  const summary = outcome.cancelled
    ? t('Diagnose All NotReady Nodes cancelled: {0} of {1} diagnosed.', outcome.outcomes.length, targets.length)
    : failing.length > 0
      ? t('{0} of {1} NotReady nodes have a failing check: {2}', failing.length, targets.length, failing.slice(0, 5).join(', ') + (failing.length > 5 ? ', …' : ''))
      : t('{0} NotReady nodes diagnosed: no check fails.', targets.length);
  const extra = failed.length > 0 ? ` ${t('{0} could not be diagnosed (see the log).', failed.length)}` : '';
  if (deps.documents !== undefined && fleet.length > 0) {
    const markdown = renderFleetReport({ startedAt: startedAt.toISOString(), rows: fleet, targets: targets.length, cancelled: outcome.cancelled });
    await deps.documents.openFleetReport(startedAt.toISOString(), markdown).catch((err: unknown) => logger.error(`diagnose all: the fleet report could not be opened: ${errorText(err)}`));
  }
  if (failing.length > 0 || failed.length > 0) {
    void vscode.window.showWarningMessage(summary + extra, t('Show Log')).then((picked) => (picked !== undefined ? vscode.commands.executeCommand(CommandIds.showLog) : undefined));
  } else void vscode.window.showInformationMessage(summary + extra);
}
