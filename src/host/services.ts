// What activate() builds once and hands to every registerX(context, services) factory.

import type * as vscode from 'vscode';
import type { Logger } from '../core/util/logger';
import type { ClusterSession } from './cluster/clusterSession';
import type { NodeTreeProvider } from './views/nodeTreeProvider';

export interface Services {
  /** The single "PLEG Doctor" log channel (also given to the language client). */
  readonly output: vscode.LogOutputChannel;
  /** The same channel behind the core Logger seam, for infra code. */
  readonly logger: Logger;
  readonly session: ClusterSession;
  readonly nodeTree: NodeTreeProvider;
}
