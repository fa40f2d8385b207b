// deploy/ on the real 1.26 cluster, in one cluster start:
// - `kubectl apply -k` of the base (through a test overlay: this cluster's CRI socket and kubelet config
//   paths, and the API server at 127.0.0.1:6443 since it runs no kube-proxy) is accepted by the real API
//   server (--dry-run=server), and refused when the manifests are wrong;
// - the ClusterRole is enough and no more: the agent's ServiceAccount token reads the kubelet's /metrics
//   on port 10250 and is refused /configz (nodes/proxy);
// - the image of deploy/image/build-offline.sh, imported into the node's containerd, runs the CLI in a pod
//   made from the DaemonSet's own pod template (non-root, read-only root filesystem) and reaches the CRI
//   socket and the kubelet config through its read-only hostPaths;
// - the real node-problem-detector with deploy/node-problem-detector/pleg-doctor-monitor.json sets
//   PLEGAtRisk Unknown while no agent answers its plugin, and False from the real agent of the DaemonSet
//   (installed by ./agentInstall.ts) once it runs.
//   PLEGAtRisk=True from the same agent on a frozen runtime, and back, is the fault window's
//   (./alertLeadTimes.ts in ./plegWindow.test.ts).

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealCluster } from './cluster';
import { agentOverlay, importAgentImage, installAgent, removeAgent } from './agentInstall';
import { plegAtRisk, removePlegAtRisk, startNpd, type RunningNpd } from './npd';
import { REPO, kubectl, realCluster, scratchDir, until } from './cluster';

let cluster: RealCluster;
let scratch: { dir: string; remove: () => void };

function overlay(name: string, extraPatches: object[] = []): string {
  return agentOverlay(cluster, scratch.dir, name, extraPatches);
}

function run(cmd: string, args: string[], timeoutMs = 120_000): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

beforeAll(() => {
  cluster = realCluster();
  scratch = scratchDir();
});

afterAll(() => {
  if (cluster) {
    removeAgent(cluster);
  }
  scratch?.remove();
});

describe('deploy/kubernetes on the real API server', () => {
  beforeAll(() => {
    // A server-side dry run creates nothing, so the namespaced objects of the same run would find no
    // namespace: it is created for real first (a real `kubectl apply -k` creates it first too).
    kubectl(cluster, ['apply', '-f', join(REPO, 'deploy/kubernetes/namespace.yaml')]);
  });

  it('kubectl apply -k --dry-run=server accepts every object of the base', () => {
    const r = run('kubectl', ['--kubeconfig', cluster.kubeconfig, 'apply', '-k', overlay('base'), '--dry-run=server']);
    expect(r.status, r.stderr).toBe(0);
    for (const object of [
      'namespace/pleg-doctor',
      'serviceaccount/pleg-doctor-agent',
      'clusterrole.rbac.authorization.k8s.io/pleg-doctor-agent',
      'clusterrolebinding.rbac.authorization.k8s.io/pleg-doctor-agent',
      'service/pleg-doctor-agent',
      'daemonset.apps/pleg-doctor-agent',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^${object.replace(/[./]/g, '\\$&')} (created|configured|unchanged) \\(server dry run\\)$`, 'm'));
    }
  });

  it('deploy/prometheus-operator renders the base plus a ServiceMonitor and a PrometheusRule, all in pleg-doctor', () => {
    const r = run('kubectl', ['kustomize', join(REPO, 'deploy/prometheus-operator')]);
    expect(r.status, r.stderr).toBe(0);
    const docs = loadAll(r.stdout) as { kind: string; metadata: { namespace?: string } }[];
    expect(docs.map((d) => d.kind).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'DaemonSet', 'Namespace', 'PrometheusRule', 'Service', 'ServiceAccount', 'ServiceMonitor']);
    for (const d of docs.filter((x) => !['Namespace', 'ClusterRole', 'ClusterRoleBinding'].includes(x.kind))) expect(d.metadata.namespace).toBe('pleg-doctor');
  });

  it('the server refuses a broken DaemonSet (so the dry run above checks something)', () => {
    const bad = overlay('bad', [{ target: { kind: 'DaemonSet' }, patch: JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/ports/0/containerPort', value: 70000 }]) }]);
    const r = run('kubectl', ['--kubeconfig', cluster.kubeconfig, 'apply', '-k', bad, '--dry-run=server']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/containerPort.*must be between 1 and 65535/);
  });

  it("the agent's ServiceAccount reads the kubelet's /metrics and is refused /configz (no nodes/proxy)", async () => {
    const base = join(REPO, 'deploy/kubernetes');
    kubectl(cluster, ['apply', '-n', 'pleg-doctor', '-f', join(base, 'serviceaccount.yaml'), '-f', join(base, 'clusterrole.yaml'), '-f', join(base, 'clusterrolebinding.yaml')]);
    const token = kubectl(cluster, ['create', 'token', 'pleg-doctor-agent', '-n', 'pleg-doctor', '--duration', '10m']).trim();
    const get = (path: string): string => {
      const r = run('curl', ['-sk', '--max-time', '20', '-o', '/dev/null', '-w', '%{http_code}', '-H', `Authorization: Bearer ${token}`, `https://127.0.0.1:10250${path}`]);
      return r.stdout;
    };
    // RBAC takes effect at once on this API server, but the kubelet caches webhook authorizations briefly.
    await until('the kubelet to authorize nodes/metrics', () => (get('/metrics') === '200' ? true : undefined), 30_000, 1000);
    expect(get('/configz')).toBe('403');
    expect(get('/pods')).toBe('403');
  });
});

describe('the offline-built image on the real node', () => {
  let podSpec: Record<string, unknown>;

  beforeAll(() => {
    importAgentImage(cluster, scratch.dir);
    // The DaemonSet's own pod template, as kustomize renders it for this cluster.
    const rendered = loadAll(run('kubectl', ['kustomize', overlay('pods')]).stdout) as { kind: string; spec: { template: { spec: Record<string, unknown> } } }[];
    const ds = rendered.find((d) => d.kind === 'DaemonSet');
    if (ds === undefined) throw new Error('kustomize rendered no DaemonSet');
    podSpec = ds.spec.template.spec;
  }, 240_000);

  async function runPod(name: string, container: Record<string, unknown>): Promise<string> {
    const spec = structuredClone(podSpec) as { containers: Record<string, unknown>[] } & Record<string, unknown>;
    const [agent] = spec.containers;
    if (agent === undefined) throw new Error('no container in the DaemonSet');
    delete agent['livenessProbe'];
    Object.assign(agent, container);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'pleg-doctor' }, spec: { ...spec, nodeName: cluster.nodeName, restartPolicy: 'Never' } };
    kubectl(cluster, ['apply', '-f', '-'], JSON.stringify(pod));
    const phase = await until(
      `pod ${name} to finish`,
      () => {
        const p = kubectl(cluster, ['get', 'pod', name, '-n', 'pleg-doctor', '-o', 'jsonpath={.status.phase}']);
        return p === 'Succeeded' || p === 'Failed' ? p : undefined;
      },
      90_000,
      500,
    );
    const logs = kubectl(cluster, ['logs', name, '-n', 'pleg-doctor']);
    expect(phase, `${logs}\n${kubectl(cluster, ['describe', 'pod', name, '-n', 'pleg-doctor'])}`).toBe('Succeeded');
    return logs;
  }

  it('runs the bundled CLI: pleg-doctor --version prints the package version', async () => {
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect((await runPod('pleg-doctor-version', { args: ['--version'] })).trim()).toBe(version);
  });

  it('as the DaemonSet runs it: not root (group 0 added), root filesystem read-only, the CRI socket and the kubelet config reachable read-only', async () => {
    const probe = `
      const fs = require('node:fs');
      const out = { uid: process.getuid(), gid: process.getgid(), groups: process.getgroups() };
      try { fs.writeFileSync('/probe', 'x'); out.rootWrite = 'written'; } catch (e) { out.rootWrite = e.code; }
      out.kubeletConfig = fs.readFileSync('/var/lib/kubelet/config.yaml', 'utf8').includes('KubeletConfiguration');
      // cli.js requires these by path: the agent's own bundle and the cluster commands'.
      out.bundles = fs.readdirSync('/opt/pleg-doctor').sort();
      const s = require('node:net').connect('/run/containerd/containerd.sock');
      s.on('connect', () => { out.criSocket = 'connected'; console.log(JSON.stringify(out)); s.destroy(); });
      s.on('error', (e) => { out.criSocket = e.code; console.log(JSON.stringify(out)); });`;
    const logs = await runPod('pleg-doctor-probe', { command: ['/usr/local/bin/node', '-e', probe], args: [] });
    expect(JSON.parse(logs.trim())).toEqual({ uid: 65532, gid: 65532, groups: expect.arrayContaining([0]), rootWrite: 'EROFS', kubeletConfig: true, bundles: ['cli.js', 'cliAgent.js', 'cliRemote.js'], criSocket: 'connected' });
  });
});

describe('node-problem-detector with deploy/node-problem-detector/pleg-doctor-monitor.json, asking the real agent', () => {
  let npd: RunningNpd | undefined;

  beforeAll(() => {
    // Shorter than the shipped 10 s so the test is quick; the plugin asks the agent at the shipped URL,
    // where nothing listens yet.
    npd = startNpd(cluster, scratch.dir, { invokeInterval: '2s' });
  });

  afterAll(async () => {
    await npd?.stop();
    if (cluster) removePlegAtRisk(cluster);
  });

  it('PLEGAtRisk: Unknown while no agent answers the plugin, False once the DaemonSet agent runs', async () => {
    const failure = async (e: unknown): Promise<never> => {
      throw new Error(`${String(e)}\nPLEGAtRisk: ${JSON.stringify(plegAtRisk(cluster))}\nNPD log:\n${npd?.log().slice(-3000) ?? ''}`);
    };
    // NPD posts the monitor's default (False) at start, before any plugin run: Unknown is the plugin's own
    // answer (exit 3, the agent unreachable), so the False after it is the real agent's.
    const unknown = await until('PLEGAtRisk=Unknown', () => (plegAtRisk(cluster)?.status === 'Unknown' ? plegAtRisk(cluster) : undefined), 60_000, 500).catch(failure);
    expect(unknown?.message).toMatch(/127\.0\.0\.1:9787/);
    await installAgent(cluster, scratch.dir);
    const ok = await until('PLEGAtRisk=False', () => (plegAtRisk(cluster)?.status === 'False' ? plegAtRisk(cluster) : undefined), 30_000, 500).catch(failure);
    expect(ok).toEqual({ status: 'False', reason: 'NoNotReadyPredicted', message: 'pleg-doctor predicts no PLEG NotReady' });
  }, 180_000);
});
