// The API server as the agent's pod sees it: KUBERNETES_SERVICE_HOST/PORT, the service-account token and
// CA that Kubernetes mounts under /var/run/secrets/kubernetes.io/serviceaccount (client-go rest
// InClusterConfig), held as an in-memory kubeconfig so the gateway reads it like any other. The token is
// named by file (client-node's tokenFile auth provider) so that a rotated token is picked up. A hostNetwork
// pod on a cluster without kube-proxy cannot reach the Service address: --api-server (or
// PLEG_DOCTOR_API_SERVER) names the API server directly, e.g. https://127.0.0.1:6443.

import { dump } from 'js-yaml';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
export const IN_CLUSTER_CONTEXT = 'in-cluster';

export interface InClusterInput {
  env: Readonly<Record<string, string | undefined>>;
  /** --api-server: overrides KUBERNETES_SERVICE_HOST/PORT. */
  apiServer?: string;
  tokenFile: string;
  caFile: string;
}

/** The API server URL, or why there is none (the agent then runs without the Ready lane). */
export function apiServerUrl(input: Pick<InClusterInput, 'env' | 'apiServer'>): { url: string } | { none: string } {
  const override = input.apiServer ?? input.env['PLEG_DOCTOR_API_SERVER'];
  if (override !== undefined && override !== '') {
    let url: URL;
    try {
      url = new URL(override);
    } catch {
      throw new Error(`--api-server must be a URL such as https://127.0.0.1:6443, got ${JSON.stringify(override)}`);
    }
    if (url.protocol !== 'https:') throw new Error(`--api-server must be https, got ${JSON.stringify(override)}`);
    return { url: url.origin };
  }
  const host = input.env['KUBERNETES_SERVICE_HOST'];
  const port = input.env['KUBERNETES_SERVICE_PORT'];
  if (host === undefined || host === '' || port === undefined || port === '') {
    return { none: 'not in a pod (no KUBERNETES_SERVICE_HOST/PORT) and no --api-server: no Node watch, so no Ready lane' };
  }
  return { url: `https://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

/** The kubeconfig document for `server` with the pod's service-account token file and CA. */
export function inClusterKubeconfig(server: string, input: Pick<InClusterInput, 'tokenFile' | 'caFile'>): string {
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: IN_CLUSTER_CONTEXT, cluster: { server, 'certificate-authority': input.caFile } }],
    users: [{ name: 'pleg-doctor-agent', user: { 'auth-provider': { name: 'tokenFile', config: { tokenFile: input.tokenFile } } } }],
    contexts: [{ name: IN_CLUSTER_CONTEXT, context: { cluster: IN_CLUSTER_CONTEXT, user: 'pleg-doctor-agent' } }],
    'current-context': IN_CLUSTER_CONTEXT,
  });
}
