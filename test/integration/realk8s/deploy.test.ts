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
//   PLEGAtRisk on the Node when the plugin reports a problem, and clears it after.
//
// STAND-IN: until the agent (`pleg-doctor agent`) lands, the NPD part points the plugin at a small HTTP
// server in this test that serves the agent contract's metrics; the real agent replaces it.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealCluster } from './cluster';
import { agentOverlay, importAgentImage, removeAgent } from './agentInstall';
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

describe('node-problem-detector with deploy/node-problem-detector/pleg-doctor-monitor.json', () => {
  // STAND-IN for the agent: serves the contract's metrics; `predicted` switches the prediction.
  let predicted = '+Inf';
  let standIn: Server;
  let npd: ChildProcess | undefined;
  let npdLog = '';

  function condition(): { status: string; reason: string; message: string } | undefined {
    const out = kubectl(cluster, ['get', 'node', cluster.nodeName, '-o', 'jsonpath={range .status.conditions[?(@.type=="PLEGAtRisk")]}{.status}|{.reason}|{.message}{end}']);
    if (out === '') return undefined;
    const [status = '', reason = '', ...message] = out.split('|');
    return { status, reason, message: message.join('|') };
  }

  beforeAll(async () => {
    standIn = createServer((req, res) => {
      if (req.url !== '/metrics') {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.end(
        [
          '# TYPE pleg_doctor_notready_predicted_seconds gauge',
          `pleg_doctor_notready_predicted_seconds ${predicted}`,
          '# TYPE pleg_doctor_finding gauge',
          `pleg_doctor_finding{cause="runtime-hung"} ${predicted === '+Inf' ? 0 : 1}`,
          '',
        ].join('\n'),
      );
    });
    await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', r));
    const agentUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;

    // The CLI installed as the monitor expects it: an executable file (its #! line runs node).
    const plugin = join(scratch.dir, 'pleg-doctor');
    copyFileSync(join(REPO, 'dist/cli.js'), plugin);
    chmodSync(plugin, 0o755);
    const monitor = JSON.parse(readFileSync(join(REPO, 'deploy/node-problem-detector/pleg-doctor-monitor.json'), 'utf8')) as {
      pluginConfig: Record<string, unknown>;
      rules: { path: string; args: string[] }[];
    };
    // Shorter than the shipped 10 s so the test is quick; everything else as shipped.
    monitor.pluginConfig['invoke_interval'] = '2s';
    for (const rule of monitor.rules) {
      rule.path = plugin;
      rule.args = rule.args.map((a) => (a === 'http://127.0.0.1:9787' ? agentUrl : a));
    }
    const config = join(scratch.dir, 'pleg-doctor-monitor.json');
    writeFileSync(config, JSON.stringify(monitor));

    const bin = join(scratch.dir, 'node-problem-detector');
    const unpacked = spawnSync('sh', ['-c', 'xz -dc "$1" > "$2" && chmod +x "$2"', 'sh', join(REPO, '../shared/npd/bin/node-problem-detector.xz'), bin]);
    if (unpacked.status !== 0) throw new Error(`could not unpack ../shared/npd/bin/node-problem-detector.xz (see ../shared/npd/README.md): ${String(unpacked.stderr)}`);
    npd = spawn(
      bin,
      [
        `--apiserver-override=https://127.0.0.1:6443?inClusterConfig=false&auth=${cluster.kubeconfig}`,
        `--hostname-override=${cluster.nodeName}`,
        `--config.custom-plugin-monitor=${config}`,
        '--port=0',
        '--prometheus-port=0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    npd.stdout?.on('data', (c: Buffer) => (npdLog += c.toString()));
    npd.stderr?.on('data', (c: Buffer) => (npdLog += c.toString()));
  }, 60_000);

  afterAll(async () => {
    if (npd?.pid !== undefined && npd.exitCode === null) {
      const exited = new Promise((r) => npd?.once('exit', r));
      npd.kill('SIGTERM');
      await exited;
    }
    standIn?.closeAllConnections();
    await new Promise((r) => standIn?.close(r));
    // NPD leaves its condition on the Node when it stops: take it off for the tests that follow.
    if (cluster) {
      const types = kubectl(cluster, ['get', 'node', cluster.nodeName, '-o', 'jsonpath={.status.conditions[*].type}']).split(' ');
      const index = types.indexOf('PLEGAtRisk');
      if (index >= 0) kubectl(cluster, ['patch', 'node', cluster.nodeName, '--subresource=status', '--type=json', '-p', JSON.stringify([{ op: 'remove', path: `/status/conditions/${index}` }])]);
    }
  });

  it('PLEGAtRisk: False while nothing is predicted, True with the prediction when the plugin reports a problem, False again after', async () => {
    const initial = await until('NPD to post PLEGAtRisk', () => condition(), 60_000, 500).catch((e: unknown) => {
      throw new Error(`${String(e)}\nNPD log:\n${npdLog.slice(-3000)}`);
    });
    expect(initial).toEqual({ status: 'False', reason: 'NoNotReadyPredicted', message: 'pleg-doctor predicts no PLEG NotReady' });

    predicted = '95';
    const atRisk = await until('PLEGAtRisk=True', () => (condition()?.status === 'True' ? condition() : undefined), 30_000, 500);
    expect(atRisk).toEqual({ status: 'True', reason: 'NotReadyPredicted', message: 'NotReady predicted in 1m35s: runtime-hung' });
    // The temporary rule's Warning Event, from the monitor's source.
    const event = () => kubectl(cluster, ['get', 'events', '-n', 'default', '--field-selector', `involvedObject.name=${cluster.nodeName},reason=PLEGNotReadyPredicted`, '-o', 'jsonpath={range .items[*]}{.source.component}|{.type}|{.message}{"\\n"}{end}']);
    const events = await until('the PLEGNotReadyPredicted event', () => (event() !== '' ? event() : undefined), 20_000, 500);
    expect(events).toContain('pleg-doctor|Warning|NotReady predicted in 1m35s: runtime-hung');

    predicted = '+Inf';
    const cleared = await until('PLEGAtRisk=False', () => (condition()?.status === 'False' ? condition() : undefined), 30_000, 500);
    expect(cleared).toEqual({ status: 'False', reason: 'NoNotReadyPredicted', message: 'pleg-doctor predicts no PLEG NotReady' });
  }, 120_000);
});
