// How a command that reaches a cluster reads the kubeconfig and picks its context, the way kubectl does:
// the files are --kubeconfig, else KUBECONFIG's path list merged, else ~/.kube/config
// (infra/kube/kubeconfig.ts); the context is --context when given, else the merged current-context
// (client-go tools/clientcmd/client_config.go, DirectClientConfig.getContextName). As in client-go's
// validation.go (ConfirmUsable), no name at all and a name that no context has are both refused; here each
// is a usage error (exit 2) that names what was read, as is a kubeconfig that cannot be read.

import type { Logger } from '../core/util/logger';
import type { ContextInfo, KubeconfigSummary, KubeGateway } from '../infra/kube/gateway';
import { CliUsageError } from './io';
import type { CliIo } from './io';
import { errorText } from '../core/util/errorText';

/** Makes the gateway a command reads the cluster through (createKubeGateway, or a test's fake). */
export type KubeGatewayFactory = (options: { kubeconfigPaths?: string[]; logger: Logger; env: CliIo['env'] }) => KubeGateway;

/** The factory's options: the command's --kubeconfig files if any, and the process's environment (KUBECONFIG, HOME). */
export function gatewayOptions(kubeconfigs: readonly string[], logger: Logger, io: CliIo): Parameters<KubeGatewayFactory>[0] {
  return { logger, env: io.env, ...(kubeconfigs.length > 0 ? { kubeconfigPaths: [...kubeconfigs] } : {}) };
}

/** Every context of the kubeconfig; a file that is missing (named explicitly), unreadable or invalid is a usage error. */
export function listKubeContexts(command: string, gateway: KubeGateway): ContextInfo[] {
  try {
    return gateway.listContexts();
  } catch (e) {
    throw new CliUsageError(`${command}: ${errorText(e)}`);
  }
}

function names(contexts: readonly ContextInfo[]): string {
  return contexts.length > 0 ? contexts.map((c) => c.name).join(', ') : 'none';
}

/** "read ~/a, ~/b" or "no kubeconfig: ~/.kube/config not found", for the no-current-context message. */
function whatWasRead(summary: KubeconfigSummary | undefined): string {
  if (summary === undefined) return '';
  if (summary.files.length > 0) return ` (read ${summary.files.join(', ')})`;
  return ` (no kubeconfig file: ${summary.searched.length > 0 ? summary.searched.join(', ') : 'none given'} not found)`;
}

/**
 * The kubeconfig's current-context, or undefined when it sets none. A current-context that names no
 * context is a usage error: kubectl refuses it too ("context was not found for specified context").
 */
export function currentContextOf(command: string, gateway: KubeGateway, contexts: readonly ContextInfo[]): string | undefined {
  const marked = contexts.find((c) => c.isCurrent)?.name;
  if (marked !== undefined) return marked;
  const named = gateway.kubeconfigSummary?.().currentContext;
  if (named !== undefined) {
    throw new CliUsageError(`${command}: the kubeconfig's current-context "${named}" names no context (contexts: ${names(contexts)}); give --context NAME`);
  }
  return undefined;
}

export interface ChosenContext {
  name: string;
  /** Whether it came from --context or from the kubeconfig's current-context. */
  from: 'flag' | 'current-context';
  contexts: ContextInfo[];
}

/** --context if given (it must exist), else the current-context (it must be set and exist). */
export function chooseContext(command: string, gateway: KubeGateway, requested: string | undefined): ChosenContext {
  const contexts = listKubeContexts(command, gateway);
  if (requested !== undefined) {
    if (!contexts.some((c) => c.name === requested)) throw new CliUsageError(`${command}: no context "${requested}" in the kubeconfig (contexts: ${names(contexts)})`);
    return { name: requested, from: 'flag', contexts };
  }
  const current = currentContextOf(command, gateway, contexts);
  if (current === undefined) {
    throw new CliUsageError(
      `${command}: no --context given and the kubeconfig sets no current-context${whatWasRead(gateway.kubeconfigSummary?.())}; give --context NAME (contexts: ${names(contexts)})`,
    );
  }
  return { name: current, from: 'current-context', contexts };
}

/** The line every such command's --help carries under --context. */
export const CONTEXT_OPTION_HELP = `  --context NAME           kubeconfig context (default: the kubeconfig's current-context, as kubectl)
  --kubeconfig FILE        read this kubeconfig (repeatable, merged) instead of KUBECONFIG's files or
                           ~/.kube/config
`;
