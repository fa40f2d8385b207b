// How a failed snapshot is told to the user: pure (no vscode), so each error class's presentation is
// testable. The infra errors already carry a message naming the hop and the cause; this adds the node and
// the host, picks the severity (a changed or revoked host key is a modal) and the actions offered.

import type { Localize } from '../../core/tree/localize';
import { HostKeyChangedError, HostKeyRevokedError, HostKeyUnknownError, SshAbortedError, SshUnreachableError } from '../../infra/ssh/errors';
import { NodeTargetError } from '../../infra/ssh/nodeTarget';
import { errorText } from '../../core/util/errorText';

export type FailureAction = 'showLog' | 'configure' | 'openTrustedHostKeys';

export type FailurePresentation =
  | { kind: 'cancelled' }
  | { kind: 'error'; modal: boolean; message: string; detail?: string; actions: FailureAction[] };

export interface FailureContext {
  node: string;
  /** `user@host:port` once the target is known, else undefined. */
  host: string | undefined;
  /** PLEG Doctor's own known_hosts file (offered for editing when a line in it is the culprit). */
  ownKnownHosts: string;
  /** The user cancelled: whatever error the cancellation surfaced as, it is not a failure. */
  cancelled: boolean;
  /** The node belongs to the built-in demo (see isDemoCluster): its addresses are made up, it has no SSH. */
  demo?: boolean;
}

/** The name of the kubeconfig cluster extension the demo's kubeconfig carries (src/demo/demoKubeconfig.ts). */
export const DEMO_CLUSTER_EXTENSION = 'pleg-doctor.demo';

/** True for a kubeconfig `cluster` mapping written by the demo: it lists the demo's extension. */
export function isDemoCluster(cluster: Record<string, unknown> | undefined): boolean {
  const extensions = cluster?.['extensions'];
  return Array.isArray(extensions) && extensions.some((e) => typeof e === 'object' && e !== null && (e as { name?: unknown }).name === DEMO_CLUSTER_EXTENSION);
}

function causeOf(error: unknown): string {
  return errorText(error);
}

/** Why the demo's nodes cannot be reached (made up), and where to try node access for real. */
export function demoNodeNote(t: Localize): string {
  return t('This is the built-in demo: its nodes have made-up addresses and no SSH server. To try node access, start the real node stack as the README says under "Node access (SSH and CRI)" → "Trying it on this machine".');
}

export function describeSnapshotFailure(error: unknown, ctx: FailureContext, t: Localize): FailurePresentation {
  if (ctx.cancelled || error instanceof SshAbortedError || (error instanceof Error && error.name === 'AbortError')) return { kind: 'cancelled' };
  const node = ctx.node;
  if (error instanceof HostKeyUnknownError) {
    const { host, port, keyType, fingerprint } = error.facts;
    return {
      kind: 'error',
      modal: false,
      message: t('CRI snapshot of {0}: the SSH host key of {1}:{2} ({3} {4}) was not accepted, so PLEG Doctor did not connect. Nothing was saved.', node, host, port, keyType, fingerprint),
      actions: ['showLog'],
    };
  }
  if (error instanceof HostKeyChangedError || error instanceof HostKeyRevokedError) {
    const line = error instanceof HostKeyChangedError ? error.knownLine : error.revokedLine;
    const { host, port } = error.facts;
    return {
      kind: 'error',
      modal: true,
      message:
        error instanceof HostKeyChangedError
          ? t('The SSH host key of {0}:{1} has CHANGED: connection to node {2} refused', host, port, node)
          : t('The SSH host key of {0}:{1} is REVOKED: connection to node {2} refused', host, port, node),
      detail: `${error.message}\n\n${t('known_hosts line: {0}:{1}', line.file, line.line)}`,
      actions: line.file === ctx.ownKnownHosts ? ['openTrustedHostKeys'] : [],
    };
  }
  if (error instanceof NodeTargetError) {
    return { kind: 'error', modal: false, message: t('CRI snapshot of {0}: no SSH target: {1}', node, error.message), actions: ['configure'] };
  }
  if (error instanceof SshUnreachableError) {
    // The error names the address and what the socket said (refused, timed out after N s, no route to host).
    const message = t('CRI snapshot of {0}: {1}', node, error.message);
    if (ctx.demo === true) {
      return {
        kind: 'error',
        modal: false,
        message: `${message}. ${demoNodeNote(t)}`,
        actions: ['showLog'],
      };
    }
    return { kind: 'error', modal: false, message, actions: ['configure', 'showLog'] };
  }
  const host = ctx.host ?? t('(host not resolved)');
  // Everything else (unreachable, authentication, sudo, ssh config, no CRI endpoint or transport, a runtime
  // error) is most often fixed in the node access settings; the log has each step and every transport attempt.
  return { kind: 'error', modal: false, message: t('CRI snapshot of {0} ({1}) failed: {2}', node, host, causeOf(error)), actions: ['configure', 'showLog'] };
}
