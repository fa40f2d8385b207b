// What activate() builds once and hands to every feature's registerX(services): one signature for all of them,
// so a feature's folder needs nothing from extension.ts but this.

import type * as vscode from 'vscode';
import type { Logger } from '../core/util/logger';
import type { ClusterSession } from './cluster/clusterSession';
import type { NodeAccessRuntime } from './nodeAccess/nodeAccessRuntime';
import type { NodeTreeProvider } from './views/nodeTreeProvider';

export interface Services {
  readonly context: vscode.ExtensionContext;
  /** The single "PLEG Doctor" log channel (also given to the language client). */
  readonly output: vscode.LogOutputChannel;
  /** The same channel behind the core Logger seam, for infra code. */
  readonly logger: Logger;
  readonly session: ClusterSession;
  readonly nodeTree: NodeTreeProvider;
  /** SSH, the CRI client and their prompts, shared by every node-side feature. */
  readonly nodeAccess: NodeAccessRuntime;
}
