// Entry point. activate() only builds the services and calls one registerX factory per feature; all
// behaviour lives in src/host. Everything registered goes into context.subscriptions.

import * as vscode from 'vscode';
import { classifyNode } from './core/classify/classifyNode';
import { ClusterSession } from './host/cluster/clusterSession';
import type { GatewayFactory } from './host/cluster/clusterSession';
import { registerSession } from './host/cluster/registerSession';
import { registerGeneralCommands } from './host/commands/registerGeneralCommands';
import { readSettings } from './host/config/settings';
import { outputChannelLogger } from './host/logging/outputChannelLogger';
import { registerKubeletLogClient } from './host/kubeletLog/registerKubeletLogClient';
import { registerDiagnostics } from './host/diagnostics/registerDiagnostics';
import { ACTIVATE_CALLED, EVALUATED, markActivation, reportActivationTime } from './host/activationProbe';
import { loadKubeBundle } from './host/bundles/kubeLoader';
import { NodeAccessRuntime } from './host/nodeAccess/nodeAccessRuntime';
import { registerNodeAccess } from './host/nodeAccess/registerNodeAccess';
import { registerTimelinePanel } from './host/timeline/registerTimelinePanel';
import type { Services } from './host/services';
import { registerStatusBar } from './host/statusBar/registerStatusBar';
import { NodeTreeProvider } from './host/views/nodeTreeProvider';
import { registerNodeView } from './host/views/registerNodeView';

/** The Kubernetes client is about 3 MB of code: its own bundle (dist/kube.js), loaded on first use. */
const createGateway: GatewayFactory = async (options) => {
  const { createKubeGateway } = await loadKubeBundle();
  return createKubeGateway(options);
};

let stopLanguageServer: (() => Promise<void>) | undefined;

// Every import above has been evaluated by now: the end of loading the bundle.
markActivation(EVALUATED);

export function activate(context: vscode.ExtensionContext): void {
  markActivation(ACTIVATE_CALLED);
  const output = vscode.window.createOutputChannel('PLEG Doctor', { log: true });
  const logger = outputChannelLogger(output);
  const session = new ClusterSession(classifyNode, createGateway, logger);
  const nodeTree = new NodeTreeProvider(session, logger, { onlyUnhealthy: readSettings().showOnlyUnhealthy });
  const nodeAccess = new NodeAccessRuntime(context, logger);
  const services: Services = { context, output, logger, session, nodeTree, nodeAccess };
  markActivation('core');
  logger.info(`PLEG Doctor ${String(context.extension.packageJSON.version)} activating`);

  context.subscriptions.push(output, session, nodeTree, nodeAccess);
  context.subscriptions.push(...registerNodeView(services));
  markActivation('nodeView');
  context.subscriptions.push(...registerStatusBar(services));
  context.subscriptions.push(...registerGeneralCommands(services));
  markActivation('statusBar+commands');
  context.subscriptions.push(...registerNodeAccess(services));
  markActivation('nodeAccess');
  context.subscriptions.push(...registerTimelinePanel(services));
  markActivation('timelinePanel');
  context.subscriptions.push(...registerDiagnostics(services));
  markActivation('diagnostics');
  const languageClient = registerKubeletLogClient(services);
  stopLanguageServer = languageClient.stop;
  context.subscriptions.push(...languageClient.disposables);
  markActivation('languageClient');
  context.subscriptions.push(...registerSession(services));
  markActivation('session');
  reportActivationTime();
}

export async function deactivate(): Promise<void> {
  await stopLanguageServer?.();
  stopLanguageServer = undefined;
}
