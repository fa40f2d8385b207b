// The one entry point the VS Code host and the CLI need: Kubernetes node → RemoteHost. It applies the node
// access settings, resolves ~/.ssh/config (aliases, ProxyJump), and hands out the pooled connection.

import type { KubeNode } from '../../core/kube/objects';
import type { SshConnection } from './connection';
import { resolveNodeTarget, toHostRequest, type NodeAccessSettings, type NodeTarget } from './nodeTarget';
import type { SshPool } from './pool';
import { resolveConnectionPlan, type ConnectionPlan, type SshConfigContext } from './sshConfig';
import { defaultIdentityFiles } from './auth';

export interface NodeAccessOptions {
  pool: SshPool;
  /** Read on every call, so settings changes apply to the next connection. */
  settings: () => NodeAccessSettings | undefined;
  /** ~/.ssh/config text and the local identity; read by the caller (the host watches the file). */
  sshConfig: () => SshConfigContext;
  /** Extra identity files (a setting), tried before the ones from ssh config. */
  identityFiles?: readonly string[];
}

export interface NodeConnection {
  target: NodeTarget;
  plan: ConnectionPlan;
  host: SshConnection;
}

export class NodeAccess {
  constructor(private readonly options: NodeAccessOptions) {}

  connectionFor(node: KubeNode, context: string): NodeConnection {
    const target = resolveNodeTarget(node, context, this.options.settings());
    const sshConfig = this.options.sshConfig();
    const plan = resolveConnectionPlan(toHostRequest(target, this.options.identityFiles ?? []), sshConfig);
    for (const hop of [...plan.jumps, plan.target]) {
      if (hop.identityFiles.length === 0) hop.identityFiles.push(...defaultIdentityFiles(sshConfig.homeDir));
    }
    return { target, plan, host: this.options.pool.get(plan) };
  }

  dispose(): void {
    this.options.pool.dispose();
  }
}
