// The agent of deploy/ on a real cluster, for every test that needs it (deploy.test.ts, the fault window's
// Prometheus/NPD checks, node access through the agent or a debug pod): a kustomize overlay for this
// cluster, the offline-built image imported once per cluster start, the DaemonSet installed and Running,
// and everything removed after.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { RealCluster } from './cluster';
import { REPO, kubectl, script, until } from './cluster';

export const AGENT_NAMESPACE = 'pleg-doctor';
export const AGENT_IMAGE = 'localhost/pleg-doctor-agent:dev';

/**
 * A kustomization over deploy/kubernetes for this cluster, in DIR/NAME: its CRI socket and kubelet config
 * paths, and the API server at 127.0.0.1:6443 (no kube-proxy here, so the `kubernetes` Service does not
 * route from the host network). `extraPatches` go after the cluster's own.
 */
export function agentOverlay(cluster: RealCluster, dir: string, name: string, extraPatches: object[] = []): string {
  const out = join(dir, name);
  mkdirSync(out, { recursive: true });
  const patches = [
    {
      target: { kind: 'DaemonSet', name: 'pleg-doctor-agent' },
      patch: JSON.stringify([
        { op: 'replace', path: '/spec/template/spec/volumes/0/hostPath/path', value: cluster.criSocket },
        { op: 'replace', path: '/spec/template/spec/volumes/1/hostPath/path', value: cluster.kubeletConfig },
        { op: 'add', path: '/spec/template/spec/containers/0/env/-', value: { name: 'KUBERNETES_SERVICE_HOST', value: '127.0.0.1' } },
        { op: 'add', path: '/spec/template/spec/containers/0/env/-', value: { name: 'KUBERNETES_SERVICE_PORT', value: '6443' } },
      ]),
    },
    ...extraPatches,
  ];
  const doc = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [relative(out, join(REPO, 'deploy/kubernetes'))], patches };
  writeFileSync(join(out, 'kustomization.yaml'), JSON.stringify(doc, null, 2));
  return out;
}

function run(cmd: string, args: string[], timeoutMs: number): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/**
 * deploy/image/build-offline.sh from this checkout's dist/, imported into the node's runtime. Once per
 * cluster start: the marker lives in the cluster's log dir, which `down` removes, so a fresh cluster (and
 * a rebuilt dist/ with it) imports again. Test files run in separate workers, hence a file, not a variable.
 */
export function importAgentImage(cluster: RealCluster, dir: string): void {
  const marker = join(cluster.logDir, 'pleg-doctor-agent-image.imported');
  if (existsSync(marker)) return;
  const tar = join(dir, 'agent.tar');
  const built = run('bash', [join(REPO, 'deploy/image/build-offline.sh'), tar], 180_000);
  if (built.status !== 0) throw new Error(`deploy/image/build-offline.sh failed (exit ${built.status}):\n${built.stderr.slice(-3000)}`);
  const imported = script('image-import', [tar]);
  if (imported.status !== 0 || !imported.stdout.trim().split('\n').includes(AGENT_IMAGE)) {
    throw new Error(`image-import of ${tar} did not give ${AGENT_IMAGE} (exit ${imported.status}):\n${imported.stdout}\n${imported.stderr.slice(-2000)}`);
  }
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, `${new Date().toISOString()}\n`);
}

/** The agent pod on the cluster's node, once Running with its container ready; its name. */
export async function waitAgentPod(cluster: RealCluster, timeoutMs = 90_000): Promise<string> {
  return until(
    'the pleg-doctor-agent pod to be Running and ready',
    () => {
      const out = kubectl(cluster, [
        'get', 'pods', '-n', AGENT_NAMESPACE, '-l', 'app.kubernetes.io/name=pleg-doctor-agent', '--field-selector', `spec.nodeName=${cluster.nodeName}`,
        '-o', 'jsonpath={range .items[*]}{.metadata.name}|{.status.phase}|{.status.containerStatuses[0].ready}{"\\n"}{end}',
      ]);
      const line = out.split('\n').find((l) => l.endsWith('|Running|true'));
      return line?.split('|')[0];
    },
    timeoutMs,
    500,
  );
}

/**
 * `kubectl apply -k` of the overlay (the image imported first), then waits for the agent pod. Returns the
 * pod's name. `extraPatches` as for agentOverlay (e.g. shorter periods for a test).
 */
export async function installAgent(cluster: RealCluster, dir: string, extraPatches: object[] = []): Promise<string> {
  importAgentImage(cluster, dir);
  const r = run('kubectl', ['--kubeconfig', cluster.kubeconfig, 'apply', '-k', agentOverlay(cluster, dir, 'agent-install', extraPatches)], 60_000);
  if (r.status !== 0) throw new Error(`kubectl apply -k of the agent overlay failed (exit ${r.status}): ${r.stderr}`);
  return waitAgentPod(cluster);
}

/**
 * Everything deploy/kubernetes creates, removed and waited for: a pod still being torn down would add
 * runtime calls to a later fault window's kubelet.
 */
export function removeAgent(cluster: RealCluster): void {
  kubectl(cluster, ['delete', 'namespace', AGENT_NAMESPACE, '--ignore-not-found', '--wait=true', '--timeout=90s']);
  kubectl(cluster, ['delete', 'clusterrole,clusterrolebinding', 'pleg-doctor-agent', '--ignore-not-found']);
}
