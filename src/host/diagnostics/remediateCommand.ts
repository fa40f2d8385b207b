// "Remediate Node…": cordon, drain, restart the runtime or the kubelet, `systemctl daemon-reexec`. Never
// automatic: a person picks the action, reads a modal with the exact command and its target, the impact
// and the warnings of docs/root-causes.md, and for the disruptive ones types the node name. Unavailable in an
// untrusted workspace. Every step is logged. Cordon is one API request (PATCH spec.unschedulable);
// node commands are argv arrays quoted by src/infra/ssh/shellQuote.ts and run with the system's ssh in
// a terminal (OpenSSH checks the host key there, never PLEG Doctor silently); drain runs kubectl there.

import * as vscode from 'vscode';
import { rankRemediations } from '../../core/diagnose/remediationRanking';
import {
  remediationGate,
  remediationPlan,
  typedNameMatches,
  type RemediationActionId,
  type RemediationPlan,
  type RemediationStep,
  type RemediationTarget,
} from '../../core/diagnose/remediation';
import type { NodeEntry } from '../../core/tree/contextNodes';
import type { Logger } from '../../core/util/logger';
import { resolveNodeTarget, type NodeTarget } from '../../infra/ssh/nodeTarget';
import { buildShellCommand, quoteShellArg } from '../../infra/ssh/shellQuote';
import type { ClusterSession } from '../cluster/clusterSession';
import { readNodeAccessConfig } from '../config/settings';
import { t } from '../l10n';
import { pickNode } from '../nodeAccess/nodePicker';
import type { DiagnosisResults } from '../views/diagnosisChildren';
import type { TreeElement } from '../views/treeElements';
import { timeoutSignal } from '../../core/util/deadlineSignal';
import { errorText } from '../../core/util/errorText';

export interface RemediateDeps {
  session: ClusterSession;
  logger: Logger;
  /** The node's last diagnosis, which ranks the actions and adds its warnings; absent in tests of the gate. */
  results?: DiagnosisResults;
}

export function remediationTarget(entry: NodeEntry): RemediationTarget {
  const runtimeVersion = entry.node.status?.nodeInfo?.containerRuntimeVersion;
  const readyStatus = entry.node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  return {
    context: entry.context,
    node: entry.name,
    ...(runtimeVersion !== undefined && runtimeVersion !== '' ? { runtimeVersion } : {}),
    ready: readyStatus === 'True' || readyStatus === 'False' || readyStatus === 'Unknown' ? readyStatus : 'missing',
  };
}

/** `ssh -p 2222 core@10.0.0.7 -- 'sudo' '-n' 'systemctl' 'restart' 'containerd'`, for the user's shell. */
export function sshCommandLine(target: NodeTarget, argv: readonly string[]): string {
  const remote = buildShellCommand(argv);
  const parts = ['ssh'];
  if (target.jumpHost !== undefined) parts.push('-J', quoteShellArg(target.jumpHost));
  if (target.port !== undefined) parts.push('-p', String(target.port));
  parts.push(quoteShellArg(target.user !== undefined ? `${target.user}@${target.host}` : target.host), '--', quoteShellArg(remote));
  return parts.join(' ');
}

/** What the modal shows for one step: the exact request or command line. */
export function describeStep(step: RemediationStep, sshTarget: NodeTarget | undefined): string {
  switch (step.kind) {
    case 'api':
      return `${step.method} ${step.path}  (${step.contentType})\n${step.body}`;
    case 'kubectl':
      return buildShellCommand(step.argv);
    case 'node':
      return sshTarget !== undefined ? sshCommandLine(sshTarget, step.argv) : buildShellCommand(step.argv);
  }
}

function classLabel(plan: RemediationPlan): string {
  return plan.cls === 'confirm' ? t('asks to confirm') : t('disruptive: asks for the node name');
}

export async function remediateNode(element: TreeElement | undefined, deps: RemediateDeps): Promise<void> {
  const { logger } = deps;
  const gate = remediationGate({ workspaceTrusted: vscode.workspace.isTrusted });
  if (!gate.allowed) {
    logger.warn(`remediation refused: ${gate.reason}`);
    void vscode.window.showErrorMessage(t('Remediation is not available in an untrusted workspace.'));
    return;
  }
  const entry = element?.kind === 'node' ? element : element?.kind === 'diagnosis' ? element.entry : await pickNode(deps.session, t('Remediate Node'));
  if (entry === undefined) return;
  const target = remediationTarget(entry);
  const diagnosis = deps.results?.get(entry.context, entry.name);
  const ranked = rankRemediations(diagnosis?.checks);
  const plans = ranked.map((r) => {
    const plan = remediationPlan(r.id, target);
    return { id: r.id, ranked: r, plan: 'unavailable' in plan ? plan : { ...plan, warnings: [...r.warnings, ...plan.warnings] } };
  });
  const picked = await vscode.window.showQuickPick(
    plans.map(({ id, plan, ranked: r }) => {
      if ('unavailable' in plan) return { label: `$(circle-slash) ${id}`, description: t('unavailable'), detail: plan.unavailable, id, plan: undefined };
      // The diagnosis ranks the list: its remedies first, saying why; the rest say they are not indicated.
      const why = r.reason !== undefined ? ` · ${r.reason}` : '';
      return { label: r.indicated ? `$(lightbulb) ${plan.title}` : plan.title, description: classLabel(plan), detail: `${plan.impact}${why}${r.warnings.length > 0 ? ` · ⚠ ${r.warnings.join(' ')}` : ''}`, id, plan };
    }),
    {
      title: t('Remediate {0}', entry.name),
      placeHolder: diagnosis !== undefined ? t('Ranked by the diagnosis ({0}); nothing runs before you confirm it', diagnosis.headline) : t('Pick an action (Diagnose Node first to rank them): nothing runs before you confirm it'),
    },
  );
  if (picked === undefined) return;
  const plan = picked.plan;
  if (plan === undefined) {
    logger.info(`remediation of ${entry.context}/${entry.name}: ${picked.id} unavailable`);
    return;
  }
  await runPlan(picked.id, plan, entry, deps);
}

async function runPlan(id: RemediationActionId, plan: RemediationPlan, entry: NodeEntry, deps: RemediateDeps): Promise<void> {
  const { logger } = deps;
  const where = `${entry.context}/${entry.name}`;
  const needsSsh = plan.steps.some((s) => s.kind === 'node');
  let sshTarget: NodeTarget | undefined;
  if (needsSsh) {
    try {
      sshTarget = resolveNodeTarget(entry.node, entry.context, readNodeAccessConfig().config.clusters);
    } catch (error) {
      const message = errorText(error);
      logger.error(`remediation ${id} of ${where}: no SSH target: ${message}`);
      void vscode.window.showErrorMessage(t('Remediation of {0}: {1}', entry.name, message));
      return;
    }
  }
  const commands = plan.steps.map((s) => describeStep(s, sshTarget));
  const detail = [
    t('Target: node {0} in context {1}', entry.name, entry.context) + (sshTarget !== undefined ? ` (${sshTarget.user !== undefined ? `${sshTarget.user}@` : ''}${sshTarget.host})` : ''),
    '',
    t('Exact command:'),
    ...commands,
    '',
    t('Impact: {0}', plan.impact),
    ...plan.warnings.map((w) => `⚠ ${w}`),
  ].join('\n');
  logger.info(`remediation ${id} of ${where} offered: ${commands.join(' ; ')}`);
  const confirm = plan.title;
  const answer = await vscode.window.showWarningMessage(t('{0} on {1}?', plan.title, entry.name), { modal: true, detail }, confirm);
  if (answer !== confirm) {
    logger.info(`remediation ${id} of ${where}: declined in the confirmation`);
    return;
  }
  if (plan.typeNodeName) {
    const typed = await vscode.window.showInputBox({
      title: t('{0} on {1}', plan.title, entry.name),
      prompt: t('This is disruptive. Type the node name {0} to confirm.', entry.name),
      validateInput: (value) => (value === '' || typedNameMatches(entry.name, value) ? undefined : t('That is not the node name.')),
    });
    if (!typedNameMatches(entry.name, typed)) {
      logger.info(`remediation ${id} of ${where}: the node name was not typed; nothing ran`);
      return;
    }
  }
  for (const [i, step] of plan.steps.entries()) {
    logger.warn(`remediation ${id} of ${where}: running ${commands[i] ?? ''}`);
    if (step.kind === 'api') {
      const gateway = deps.session.kube;
      if (gateway?.setUnschedulable === undefined) {
        void vscode.window.showErrorMessage(t('Remediation of {0}: the kubeconfig is not loaded yet', entry.name));
        return;
      }
      try {
        await gateway.setUnschedulable(entry.context, entry.name, true, timeoutSignal(30_000));
        logger.info(`remediation ${id} of ${where}: done`);
        void vscode.window.showInformationMessage(t('{0} cordoned.', entry.name));
      } catch (error) {
        const message = errorText(error);
        logger.error(`remediation ${id} of ${where} failed: ${message}`);
        void vscode.window.showErrorMessage(t('Remediation of {0} failed: {1}', entry.name, message));
        return;
      }
    } else {
      // The user's ssh and kubectl, in a terminal they can watch: host keys, passwords and sudo prompts are
      // theirs to answer there, and the exit status is on screen.
      const terminal = vscode.window.createTerminal({ name: `PLEG Doctor: ${plan.title} (${entry.name})` });
      terminal.show();
      terminal.sendText(commands[i] ?? '', true);
      logger.info(`remediation ${id} of ${where}: started in a terminal`);
    }
  }
}
