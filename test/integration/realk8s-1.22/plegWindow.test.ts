// The shared PLEG fault window (../realk8s/plegWindow.ts) on the real kubelet 1.22.4 with its dockershim
// and Docker 20.10: freeze stops dockerd. In the same window (no second freeze), the docker-era surfaces:
//  - the node tier on this node (LocalHost stands for the SSH session: same argv, same deadlines): the
//    CRI snapshot through the kubelet's own dockershim socket (CRI v1alpha2: RuntimeName docker, API
//    1.41.0), `docker ps` / `docker info` against the kubelet's --docker-endpoint daemon;
//  - while PLEG is posted: those docker calls wait out their deadline, dockerd is in state T, and Diagnose
//    with this node side names the runtime hang with the docker evidence;
//  - the recording: the session knows the node runs docker, and the PLEG post was predicted within 5 s
//    at least 30 s before it happened, across the ~1 min status lag of this kubelet (each sync waits
//    2 × 10 s in cAdvisor's docker calls and the runtime request timeout in Version);
//  - the node tree in a real VS Code (../realk8s/treeInCodeServer.ts): the row says Ready, then "Runtime
//    down" while the Node posts "[container runtime is down, container runtime not ready: …]", PLEG with the
//    kubelet's message in its tooltip when the Node does, and Ready again after SIGCONT.
import { expect } from 'vitest';
import type { NodeSideEvidence } from '../../../src/core/diagnose/evidence';
import { diagnose } from '../../../src/core/diagnose/runDiagnosis';
import { predictionBefore } from '../../../src/core/timeline/postPredictions';
import { takeSnapshot } from '../../../src/infra/cri/snapshot';
import { localSocketClient } from '../../../src/infra/cri/transports/localSocket';
import { runNodeProbes } from '../../../src/infra/probes/nodeProbes';
import { LocalHost } from '../../support/localHost';
import { describePlegWindow, type PlegWindow } from '../realk8s/plegWindow';
import { withTreeInCodeServer } from '../realk8s/treeInCodeServer';

const PROBE_DEADLINE_MS = 3_000;

async function nodeSide(w: PlegWindow): Promise<NodeSideEvidence> {
  const client = localSocketClient(w.cluster.criSocket, { defaultDeadlineMs: PROBE_DEADLINE_MS });
  try {
    const [snapshot, probes] = await Promise.all([
      takeSnapshot(client, { deadlineMs: PROBE_DEADLINE_MS, budgetMs: 10_000 }),
      runNodeProbes(new LocalHost(), { timeoutMs: PROBE_DEADLINE_MS }),
    ]);
    return { host: 'local', transport: { kind: 'local-socket', endpoint: w.cluster.criSocket, reason: 'the kubelet’s dockershim socket' }, connectMs: 0, snapshot, probes };
  } finally {
    client.close();
  }
}

/** The kit's DOCKER_HOST (unix://…/docker.sock): the daemon the kubelet's --docker-endpoint names. */
const dockerHost = (w: PlegWindow): string => w.cluster.raw['DOCKER_HOST'] ?? '';

describePlegWindow(withTreeInCodeServer({
  async beforeFreeze(w) {
    const side = await nodeSide(w);
    // Through dockershim: the CRI answers (v1alpha2) with docker's name and API version.
    const seen = JSON.stringify({ errors: side.snapshot.errors, findings: side.snapshot.findings, timings: side.snapshot.timings.slice(0, 6) });
    expect(side.snapshot.runtime, seen).toMatchObject({ name: 'docker', apiVersion: '1.41.0' });
    expect(side.snapshot.errors, seen).toEqual([]);
    const docker = side.probes?.docker;
    expect(docker?.endpoint).toBe(dockerHost(w));
    expect(docker?.info).toMatchObject({ status: 'ok', value: { storageDriver: 'overlay2', cgroupDriver: 'cgroupfs' } });
    if (docker?.info.status === 'ok') expect(docker.info.value.serverVersion).toMatch(/^20\.10\.24/u);
    expect(docker?.ps.status).toBe('ok');
  },

  async whilePleg(w, { evidence }) {
    const side = await nodeSide(w);
    const docker = side.probes?.docker;
    expect(docker?.ps).toMatchObject({ status: 'timeout' });
    expect(docker?.info).toMatchObject({ status: 'timeout' });
    const d = diagnose({ ...evidence, nodeSide: { status: 'ok', value: side, ms: 0 } });
    const hung = d.findings.find((f) => f.checkId === 'runtime-hung');
    expect(hung?.title).toBe('The container runtime is not answering CRI calls');
    const text = hung?.evidence.map((e) => e.text).join('\n') ?? '';
    expect(text).toContain(`\`docker ps\` against ${dockerHost(w)} did not answer within 3s: dockerd is not answering`);
    expect(text).toMatch(/`dockerd` \(pid \d+\) has state `T/u);
    // Through dockershim the CRI calls hang behind dockerd.
    expect(text).toMatch(/CRI snapshot: .*(ListPodSandbox|ListContainers|Version|Status)/u);
  },

  afterRecovery(w, session) {
    expect(session.containerRuntimeVersion).toMatch(/^docker:\/\/20\.10\.24/u);
    expect(session.kubeletVersion).toMatch(/^v1\.22\.4/u);
    const pleg = w.posts.find((p) => p.message.includes('PLEG is not healthy'));
    expect(pleg).toBeDefined();
    const t0 = Date.parse(session.startedAt);
    const early = predictionBefore(session.predictions ?? [], 'pleg-notready-posted', (pleg?.atMs ?? NaN) - t0 - 30_000);
    expect(typeof early?.predictedAtMs, JSON.stringify(session.predictions)).toBe('number');
    expect(Math.abs(t0 + (early?.predictedAtMs ?? NaN) - (pleg?.atMs ?? NaN))).toBeLessThan(5_000);
  },

  // Seen on every real window of this kubelet: its /metrics answers within the proxy deadline while dockerd is
  // stopped (the containerd kubelets' wait on the runtime), and with a 30 s timeout no single relist call waits
  // a minute, so from the API tier alone runtime-hung rests on the Ready message's runtime errors.
  metricsWhileFrozen: 'answers',
  hungEvidence: /container runtime is down/u,
  // Not yet modelled: after SIGCONT this kubelet's status sync that was waiting in cAdvisor's docker calls
  // returns at once and posts Ready=True; the model predicts that post only once it sees it (real run:
  // predicted at the post, not before). The three fault-side predictions are held to 5 s all the same.
  predictsReadyPost: false,
}));
