// The shared PLEG fault window (../realk8s/plegWindow.ts) on the real kubelet 1.36.2 (../shared/k8s-current:
// containerd frozen; node k136-node on 10.254.136.1), plus what 1.36 adds, in the same window:
// - before the freeze, a pod started on the node makes the kubelet relist that one pod on demand
//   (PLEGOnDemandRelist, beta and on by default in 1.36): its /metrics exports the gate
//   (`kubernetes_feature_enabled{name="PLEGOnDemandRelist"} 1`) and a non-empty
//   `kubelet_pleg_pod_relist_duration_seconds`; `pleg-doctor diagnose` on the healthy node reports the
//   per-pod relists and that the gate came from the kubelet's metrics;
// - the recording of `pleg-doctor timeline` holds the per-pod relist durations its scrapes saw and the
//   gate as the kubelet reported it;
// - the node tree in a real VS Code (../realk8s/treeInCodeServer.ts) following the Node's posts through the
//   window: Ready, Runtime down, PLEG with the kubelet's message in its tooltip, Ready again after SIGCONT.

import { expect } from 'vitest';
import { summarizeKubeletMetrics } from '../../../src/core/parse/kubeletMetrics';
import { cli, kubectl, script, until } from '../realk8s/cluster';
import { describePlegWindow, type PlegWindow } from '../realk8s/plegWindow';
import { withTreeInCodeServer } from '../realk8s/treeInCodeServer';

const POD = 'pleg-136-on-demand';

async function metrics({ gateway, context, cluster }: PlegWindow): Promise<ReturnType<typeof summarizeKubeletMetrics>> {
  const r = await gateway.nodeProxyGet(context, cluster.nodeName, '/metrics', { timeoutMs: 15_000 });
  if (r.kind !== 'ok') throw new Error(`/metrics through the node proxy: ${JSON.stringify(r).slice(0, 500)}`);
  return summarizeKubeletMetrics(r.body);
}

describePlegWindow(withTreeInCodeServer({
  beforeFreeze: async (w) => {
    // The recording scrapes /metrics every 5 s from its start: two scrapes before the pod, so one interval
    // of the recording holds the pod's per-pod relists (a sample's mean is over the interval between scrapes).
    await new Promise((r) => setTimeout(r, 12_000));
    const before = (await metrics(w)).plegPodRelistDuration?.count ?? 0;
    const pod = script('pod', [POD]);
    expect(pod.status, pod.stderr).toBe(0);
    await until(`${POD} Running`, () => (kubectl(w.cluster, ['get', 'pod', POD, '-o', 'jsonpath={.status.phase}']).trim() === 'Running' ? true : undefined), 60_000, 500);
    // SyncPod started the pod's containers, so the kubelet asked for a relist of that pod.
    const m = await until('a per-pod relist in the kubelet histogram', async () => {
      const now = await metrics(w);
      return (now.plegPodRelistDuration?.count ?? 0) > before ? now : undefined;
    }, 30_000, 1_000);
    expect(m.featureGates?.['PLEGOnDemandRelist']).toBe(true);

    const run = cli(['diagnose', '--kubeconfig', w.cluster.kubeconfig, '--context', w.context, '--node', w.cluster.nodeName, '--format', 'json', '--proxy-timeout', '10000', '--metrics-interval', '1000'], {}, 120_000);
    const checks = (JSON.parse(run.stdout) as { checks?: { id?: string; verdict?: string; summary?: string }[] }).checks ?? [];
    const latency = checks.find((k) => k.id === 'relist-latency');
    expect(latency?.verdict, run.stdout.slice(0, 3000)).toBe('ok');
    expect(latency?.summary).toMatch(/per-pod relists p99 \S+ \(\d+ since the kubelet started\)/);
    expect(latency?.summary).toContain(', PLEGOnDemandRelist on (kubernetes_feature_enabled)');
  },
  afterRecovery: (w, session) => {
    expect(session.kubeletVersion ?? '').toMatch(/^v1\.36\./);
    expect(session.settings.profile).toBe('1.36+');
    expect(session.settings.onDemandRelist).toEqual({ enabled: true, source: 'metrics' });
    // The pod started before the freeze: a scrape after it saw per-pod relists finish.
    expect(session.kubelet.some((s) => typeof s.podRelistDurationS === 'number' && s.podRelistDurationS > 0), JSON.stringify(session.kubelet.slice(0, 5))).toBe(true);
    kubectl(w.cluster, ['delete', 'pod', POD, '--ignore-not-found', '--grace-period=1', '--wait=false']);
  },
}));
