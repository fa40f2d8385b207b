// Owns the gateway, the live NodeWatches and the tree model for the lifetime of one configuration.
// Re-reads the kubeconfig on refresh and rebuilds the gateway when the kubeconfig setting changes.

import * as vscode from 'vscode';
import type { ClassifyFn } from '../../core/tree/contextNodes';
import { isContextExcluded } from '../../core/tree/contextFilter';
import { NodeTreeModel } from '../../core/tree/nodeTreeModel';
import { verdictChangeLine } from '../../core/tree/verdictLog';
import type { Logger } from '../../core/util/logger';
import type { ContextInfo, KubeGateway, NodeWatch } from '../../infra/kube/gateway';
import { FlapTracker } from './flapTracker';
import { errorText } from '../../core/util/errorText';

export type GatewayFactory = (options: { kubeconfigPaths?: string[]; logger?: Logger }) => Promise<KubeGateway>;

export type SessionState =
  | { kind: 'loading' }
  /** No context in any kubeconfig file (or no file at all). */
  | { kind: 'noKubeconfig' }
  /** Every context is excluded by plegDoctor.contexts.exclude. */
  | { kind: 'allExcluded'; count: number }
  | { kind: 'configError'; message: string }
  | { kind: 'ready' };

export interface SessionConfig {
  kubeconfigPaths: string[];
  excludedContexts: string[];
}

export class ClusterSession implements vscode.Disposable {
  readonly model: NodeTreeModel;
  private readonly stateEmitter = new vscode.EventEmitter<SessionState>();
  readonly onDidChangeState = this.stateEmitter.event;
  private current: SessionState = { kind: 'loading' };
  private gateway: KubeGateway | undefined;
  private gatewayKey = '';
  private readonly watches = new Map<string, { watch: NodeWatch; detach: vscode.Disposable }>();
  private generation = 0;
  private readonly flaps: FlapTracker;
  private readonly verdictLog: { dispose(): void };

  constructor(
    classify: ClassifyFn,
    private readonly createGateway: GatewayFactory,
    private readonly logger: Logger,
  ) {
    this.model = new NodeTreeModel({ classify });
    // Every verdict change goes to the log, so a node's flap history can be read back from it.
    this.verdictLog = this.model.onDidChangeVerdict((change) => this.logger.info(verdictChangeLine(change)));
    this.flaps = new FlapTracker(this.model, () => this.gateway, logger);
  }

  get state(): SessionState {
    return this.current;
  }

  /** The gateway for on-demand calls (events, pod counts); undefined until configured. */
  get kube(): KubeGateway | undefined {
    return this.gateway;
  }

  /** (Re)configures: a new kubeconfig path list makes a new gateway; contexts are reconciled either way. */
  async configure(config: SessionConfig): Promise<void> {
    const generation = ++this.generation;
    const key = JSON.stringify(config.kubeconfigPaths);
    if (this.gateway === undefined || key !== this.gatewayKey) {
      this.disposeWatches();
      this.gateway?.dispose();
      this.gateway = undefined;
      this.setState({ kind: 'loading' });
      const options: { kubeconfigPaths?: string[]; logger?: Logger } = { logger: this.logger };
      if (config.kubeconfigPaths.length > 0) options.kubeconfigPaths = config.kubeconfigPaths;
      let gateway: KubeGateway;
      try {
        gateway = await this.createGateway(options);
      } catch (err) {
        if (generation === this.generation) this.fail(err);
        return;
      }
      if (generation !== this.generation) {
        gateway.dispose();
        return;
      }
      this.gateway = gateway;
      this.gatewayKey = key;
    }
    this.reconcile(config.excludedContexts);
  }

  /** Re-reads the kubeconfig and relists every context (or retries creating the gateway). */
  async refreshAll(config: SessionConfig): Promise<void> {
    if (this.gateway === undefined) {
      await this.configure(config);
      return;
    }
    for (const { watch } of this.watches.values()) watch.refresh();
    this.reconcile(config.excludedContexts);
  }

  refreshContext(name: string): void {
    this.watches.get(name)?.watch.refresh();
  }

  dispose(): void {
    this.generation++;
    this.flaps.dispose();
    this.verdictLog.dispose();
    this.disposeWatches();
    this.gateway?.dispose();
    this.gateway = undefined;
    this.model.dispose();
    this.stateEmitter.dispose();
  }

  private reconcile(excludedContexts: string[]): void {
    const gateway = this.gateway;
    if (gateway === undefined) return;
    let all: ContextInfo[];
    try {
      all = gateway.listContexts();
    } catch (err) {
      this.fail(err);
      return;
    }
    const contexts = all.filter((c) => !isContextExcluded(c.name, excludedContexts));
    this.logger.info(`kubeconfig: ${all.length} contexts, ${all.length - contexts.length} excluded`);
    for (const c of contexts) this.logger.debug(`context ${c.name}: ${c.server}`);

    for (const [name, { watch, detach }] of [...this.watches]) {
      if (!contexts.some((c) => c.name === name)) {
        detach.dispose();
        watch.dispose();
        this.watches.delete(name);
      }
    }
    this.model.setContexts(contexts.map((c) => ({ name: c.name, isCurrent: c.isCurrent, server: c.server })));
    for (const c of contexts) {
      if (this.watches.has(c.name)) continue;
      try {
        const watch = gateway.watchNodes(c.name);
        const attached = this.model.attach(watch);
        this.watches.set(c.name, { watch, detach: new vscode.Disposable(() => attached.dispose()) });
      } catch (err) {
        this.logger.error(`cannot watch nodes of context ${c.name}: ${errorText(err)}`);
      }
    }
    if (all.length === 0) this.setState({ kind: 'noKubeconfig' });
    else if (contexts.length === 0) this.setState({ kind: 'allExcluded', count: all.length });
    else this.setState({ kind: 'ready' });
  }

  private fail(err: unknown): void {
    const message = errorText(err);
    this.logger.error(`kubeconfig: ${message}`);
    this.disposeWatches();
    this.model.setContexts([]);
    this.setState({ kind: 'configError', message });
  }

  private disposeWatches(): void {
    for (const { watch, detach } of this.watches.values()) {
      detach.dispose();
      watch.dispose();
    }
    this.watches.clear();
  }

  private setState(state: SessionState): void {
    this.current = state;
    this.stateEmitter.fire(state);
  }
}
