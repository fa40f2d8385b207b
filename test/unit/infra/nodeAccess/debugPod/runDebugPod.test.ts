import { describe, expect, it } from 'vitest';
import { debugPodManifest } from '../../../../../src/core/nodeAccess/debugPodSpec';
import { silentLogger } from '../../../../../src/core/util/logger';
import { KubeRequestError } from '../../../../../src/infra/kube/createGateway';
import { DebugPodAbortedError, DebugPodError, runDebugPod } from '../../../../../src/infra/nodeAccess/debugPod/runDebugPod';
import { fakePodsApi } from '../../../../support/fakePodsApi';

const manifest = debugPodManifest({
  node: 'n1',
  namespace: 'pleg-doctor',
  image: 'img:1',
  criSocket: '/run/containerd/containerd.sock',
  run: { kind: 'cri-snapshot', callDeadlineMs: 1000 },
  deadlineSeconds: 30,
  suffix: 'abcde',
});
const fast = { pollMs: 5, deleteMs: 300 };
const succeeded = { phase: 'Succeeded', containers: [{ name: 'snapshot', terminated: { exitCode: 0, reason: 'Completed' } }] };

describe('runDebugPod', () => {
  it('creates, waits for the end, reads the log, deletes with grace 0 and waits until the pod is gone', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Pending' }, { phase: 'Running' }, succeeded], log: 'out\n', goneAfterReads: 1 });
    const outcome = await runDebugPod(api, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: fast });
    expect(outcome).toMatchObject({ log: 'out\n', deleted: true, pod: { phase: 'Succeeded' } });
    expect(api.calls).toEqual(['create', 'get', 'get', 'get', 'log:snapshot', 'delete:0', 'get', 'get']);
    expect(api.live.size).toBe(0);
    expect(api.created).toEqual([manifest]);
  });

  it('returns a Failed pod with its log: the caller reads what it printed', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Failed', containers: [{ name: 'snapshot', terminated: { exitCode: 1, reason: 'Error' } }] }], log: 'x' });
    const outcome = await runDebugPod(api, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: fast });
    expect(outcome.pod.phase).toBe('Failed');
    expect(api.live.size).toBe(0);
  });

  it('on abort while the pod runs: deletes it, then rejects as aborted', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Running' }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('interrupted by SIGINT')), 30);
    await expect(runDebugPod(api, manifest, { logger: silentLogger, signal: controller.signal, timeouts: fast })).rejects.toThrow(DebugPodAbortedError);
    expect(api.calls).toContain('delete:0');
    expect(api.live.size).toBe(0);
  });

  it('a pod that cannot start (image pull) fails at once, naming the reason, and is deleted', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Pending', containers: [{ name: 'snapshot', waiting: { reason: 'ErrImagePull', message: 'not found' } }] }] });
    const run = runDebugPod(api, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: fast });
    await expect(run).rejects.toThrow(DebugPodError);
    await expect(run).rejects.toThrow(/cannot start: Pending; container snapshot: waiting \(ErrImagePull: not found\)/);
    expect(api.live.size).toBe(0);
  });

  it('past its completion deadline: fails naming it and the last phase, and the pod is deleted', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Running' }] });
    const run = runDebugPod(api, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: { ...fast, completionMs: 50 } });
    await expect(run).rejects.toThrow(/did not finish within 50 ms \(last seen: Running\)$/);
    expect(api.live.size).toBe(0);
  });

  it('still Pending at the deadline: says a kubelet with an unhealthy PLEG starts no pods', async () => {
    const api = fakePodsApi({ phases: [{ phase: 'Pending' }] });
    const run = runDebugPod(api, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: { ...fast, completionMs: 50 } });
    await expect(run).rejects.toThrow(/last seen: Pending\); a kubelet whose PLEG is not healthy starts no pods: reach this node through the agent or SSH/);
    expect(api.live.size).toBe(0);
  });

  it('a create that fails after the abort is still followed by a delete (it may have reached the server)', async () => {
    const controller = new AbortController();
    const api = fakePodsApi({ phases: [{ phase: 'Pending' }], createError: new Error('socket hang up') });
    const create = api.createPod.bind(api);
    api.createPod = async (ns, m, s) => {
      controller.abort(new Error('interrupted by SIGTERM'));
      return create(ns, m, s);
    };
    await expect(runDebugPod(api, manifest, { logger: silentLogger, signal: controller.signal, timeouts: fast })).rejects.toThrow(DebugPodAbortedError);
    expect(api.calls).toEqual(['create', 'delete:0', 'get']);
  });

  it('a create the API server refused (4xx) is not followed by a delete; a create without an answer is', async () => {
    const conflict = new KubeRequestError({ kind: 'other', httpStatus: 409, message: 'HTTP 409 for "create pods": pods "pleg-doctor-debug-abcde" already exists' });
    const refused = fakePodsApi({ phases: [], createError: conflict });
    await expect(runDebugPod(refused, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: fast })).rejects.toThrow(/already exists/);
    expect(refused.calls).toEqual(['create']);
    const lost = fakePodsApi({ phases: [], createError: new KubeRequestError({ kind: 'timeout', message: 'The API server at 127.0.0.1:6443 did not answer "create pods" in time' }) });
    await expect(runDebugPod(lost, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: fast })).rejects.toThrow(/did not answer "create pods" in time/);
    expect(lost.calls).toEqual(['create', 'delete:0', 'get']);
  });

  it('a deletion that never answers is bounded by its own deadline and logged with the command to finish it', async () => {
    const api = fakePodsApi({ phases: [succeeded], log: 'ok', deleteHangs: true });
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (m: string | Error) => void errors.push(String(m)) };
    const started = Date.now();
    const outcome = await runDebugPod(api, manifest, { logger, signal: new AbortController().signal, timeouts: { ...fast, deleteMs: 100 } });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(outcome.deleted).toBe(false);
    expect(api.calls.filter((c) => c.startsWith('delete'))).toHaveLength(1);
    expect(errors.join('\n')).toContain('kubectl delete pod -n pleg-doctor pleg-doctor-debug-abcde');
  });
});

describe('runDebugPod: a pod the kubelet cannot mount', () => {
  it('fails before its deadline on a FailedMount event, quoting it, and is deleted', async () => {
    const message = 'MountVolume.SetUp failed for volume "cri-socket" : hostPath type check failed: /run/x.sock is not a socket file';
    const api = fakePodsApi({ phases: [{ phase: 'Pending' }], events: [{ type: 'Normal', reason: 'Scheduled' }, { type: 'Warning', reason: 'FailedMount', message }] });
    const run = runDebugPod(api, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: { ...fast, completionMs: 5_000 } });
    await expect(run).rejects.toThrow(`cannot start: FailedMount: ${message}`);
    expect(api.live.size).toBe(0);
  });

  it('after a FailedMount, waits for the kubelet to let the pod go beyond the usual deletion deadline', async () => {
    const events = [{ type: 'Warning', reason: 'FailedMount', message: 'hostPath type check failed' }];
    // The pod stays (terminating) for 40 reads after the delete, about 200 ms: longer than deleteMs.
    const mounted = fakePodsApi({ phases: [{ phase: 'Pending' }], events, goneAfterReads: 40 });
    await expect(runDebugPod(mounted, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: { ...fast, deleteMs: 60 } })).rejects.toThrow(/FailedMount/);
    expect(mounted.live.size).toBe(0);
    // The same slow deletion of a pod that did not fail its mount is not waited for beyond deleteMs.
    const other = fakePodsApi({ phases: [{ phase: 'Pending', containers: [{ name: 'snapshot', waiting: { reason: 'ErrImagePull' } }] }], goneAfterReads: 40 });
    await expect(runDebugPod(other, manifest, { logger: silentLogger, signal: new AbortController().signal, timeouts: { ...fast, deleteMs: 60 } })).rejects.toThrow(/ErrImagePull/);
    expect(other.live.size).toBe(1);
  });

  it('events it may not read: one warning, then it waits for the deadline as before', async () => {
    const warnings: string[] = [];
    const api = fakePodsApi({ phases: [{ phase: 'Pending' }], events: new Error('403 Forbidden: cannot list events') });
    const run = runDebugPod(api, manifest, { logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) }, signal: new AbortController().signal, timeouts: { ...fast, completionMs: 100 } });
    await expect(run).rejects.toThrow(/did not finish within 100 ms/);
    expect(api.calls.filter((c) => c === 'events')).toHaveLength(1);
    expect(warnings.join('\n')).toMatch(/cannot read its events \(403 Forbidden: cannot list events\)/);
  });
});
