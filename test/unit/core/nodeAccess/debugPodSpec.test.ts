import { describe, expect, it } from 'vitest';
import { DEBUG_POD_SELECTOR, debugPodConfirmation, debugPodManifest } from '../../../../src/core/nodeAccess/debugPodSpec';
import type { DebugPodRequest } from '../../../../src/core/nodeAccess/debugPodSpec';

const request: DebugPodRequest = {
  node: 'worker-3',
  namespace: 'pleg-doctor',
  image: 'registry.example/pleg-doctor-agent:0.1.0',
  criSocket: '/run/containerd/containerd.sock',
  run: { kind: 'cri-snapshot', callDeadlineMs: 4000 },
  deadlineSeconds: 120,
  suffix: 'x7k2q',
};

describe('debugPodManifest', () => {
  const pod = debugPodManifest(request);

  it('pins a one-shot pod to the node with a deadline, findable by its labels', () => {
    expect(pod.metadata.name).toBe('pleg-doctor-debug-x7k2q');
    expect(pod.metadata.namespace).toBe('pleg-doctor');
    expect(pod.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'pleg-doctor-debug', 'app.kubernetes.io/managed-by': 'pleg-doctor' });
    expect(DEBUG_POD_SELECTOR).toBe('app.kubernetes.io/name=pleg-doctor-debug,app.kubernetes.io/managed-by=pleg-doctor');
    expect(pod.spec.nodeName).toBe('worker-3');
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.spec.activeDeadlineSeconds).toBe(120);
    expect(pod.spec.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pod.spec.priorityClassName).toBe('system-node-critical');
  });

  it('runs the image CLI once on the node socket, mounted read-only at its own path', () => {
    const [c] = pod.spec.containers;
    expect(c?.image).toBe(request.image);
    expect(c?.args).toEqual(['snapshot', '--cri-socket', '/run/containerd/containerd.sock', '--timeout', '4000']);
    expect(c?.volumeMounts).toEqual([{ name: 'cri-socket', mountPath: '/run/containerd/containerd.sock', readOnly: true }]);
    expect(pod.spec.volumes).toEqual([{ name: 'cri-socket', hostPath: { path: '/run/containerd/containerd.sock', type: 'Socket' } }]);
  });

  it('has least privilege: no token, no hostPID, no journal, not root, no capabilities', () => {
    expect(pod.spec.automountServiceAccountToken).toBe(false);
    expect(pod.spec.hostPID).toBeUndefined();
    expect(JSON.stringify(pod)).not.toMatch(/journal/);
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532, supplementalGroups: [0] });
    expect(pod.spec.containers[0]?.securityContext).toEqual({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
  });

  it('refuses fields that would change an API path or a mount, naming them', () => {
    expect(() => debugPodManifest({ ...request, node: 'Worker_3' })).toThrow(/"Worker_3" is not a valid node name/);
    expect(() => debugPodManifest({ ...request, namespace: 'a/b' })).toThrow(/namespace/);
    expect(() => debugPodManifest({ ...request, criSocket: 'run/x.sock' })).toThrow(/absolute path/);
    expect(() => debugPodManifest({ ...request, criSocket: '/run/../etc/shadow' })).toThrow(/absolute path/);
    expect(() => debugPodManifest({ ...request, image: 'a b' })).toThrow(/image/);
    expect(() => debugPodManifest({ ...request, deadlineSeconds: 5 })).toThrow(/10 to 3600/);
    expect(() => debugPodManifest({ ...request, suffix: 'ABCDE' })).toThrow(/suffix/);
  });
});

describe('debugPodConfirmation', () => {
  it('names the namespace, pod, node, image, what runs, each privilege and the deadline', () => {
    const text = debugPodConfirmation(debugPodManifest(request));
    expect(text).toContain('Create pod pleg-doctor/pleg-doctor-debug-x7k2q on node worker-3?');
    expect(text).toContain('image:      registry.example/pleg-doctor-agent:0.1.0');
    expect(text).toContain('runs:       snapshot --cri-socket /run/containerd/containerd.sock --timeout 4000');
    expect(text).toContain("the node's network namespace (hostNetwork)");
    expect(text).toContain('/run/containerd/containerd.sock from the node, read-only');
    expect(text).toContain('user 65532 with group 0');
    expect(text).toContain('stops it after 2 min');
    expect(text).not.toContain('hostPID');
  });

  it('is read from the manifest: a privilege added to it shows in the words', () => {
    const pod = debugPodManifest(request);
    pod.spec.hostPID = true;
    pod.spec.volumes.push({ name: 'journal', hostPath: { path: '/var/log/journal', type: 'Directory' } });
    pod.spec.containers[0]?.volumeMounts.push({ name: 'journal', mountPath: '/var/log/journal', readOnly: true });
    const text = debugPodConfirmation(pod);
    expect(text).toContain("the node's process namespace (hostPID)");
    expect(text).toContain('/var/log/journal from the node, read-only');
  });
});

describe('the kubelet-log run', () => {
  const logRequest: DebugPodRequest = {
    node: 'worker-3',
    namespace: 'pleg-doctor',
    image: 'registry.example/pleg-doctor-agent:0.1.0',
    run: { kind: 'kubelet-log', sinceEpochMs: 1_795_000_000_500, untilEpochMs: 1_795_001_800_999, journalDirs: ['/var/log/journal', '/run/log/journal'], maxBytes: 4_194_304, readDeadlineMs: 60_000 },
    deadlineSeconds: 120,
    suffix: 'x7k2q',
  };
  const pod = debugPodManifest(logRequest);

  it('runs kubelet-journal for the window in whole seconds, each journal directory read-only at its own path, no socket', () => {
    const [c] = pod.spec.containers;
    expect(c?.name).toBe('kubelet-log');
    expect(c?.args).toEqual(['kubelet-journal', '--since', '@1795000000', '--until', '@1795001800', '--journal-dir', '/var/log/journal', '--journal-dir', '/run/log/journal', '--max-bytes', '4194304', '--timeout', '60000']);
    expect(c?.volumeMounts).toEqual([
      { name: 'journal-0', mountPath: '/var/log/journal', readOnly: true },
      { name: 'journal-1', mountPath: '/run/log/journal', readOnly: true },
    ]);
    expect(pod.spec.volumes).toEqual([
      { name: 'journal-0', hostPath: { path: '/var/log/journal', type: 'Directory' } },
      { name: 'journal-1', hostPath: { path: '/run/log/journal', type: 'Directory' } },
    ]);
    expect(JSON.stringify(pod)).not.toMatch(/sock/);
  });

  it('is root without any capability (journald files are 0640 root:systemd-journal), the rest as the snapshot', () => {
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: false, runAsUser: 0, runAsGroup: 0, supplementalGroups: [] });
    expect(pod.spec.containers[0]?.securityContext).toEqual({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(pod.spec.automountServiceAccountToken).toBe(false);
    expect(pod.spec.hostPID).toBeUndefined();
    expect(pod.spec.activeDeadlineSeconds).toBe(120);
    expect(pod.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'pleg-doctor-debug', 'app.kubernetes.io/managed-by': 'pleg-doctor' });
    const text = debugPodConfirmation(pod);
    expect(text).toContain('/var/log/journal from the node, read-only; /run/log/journal from the node, read-only');
    expect(text).toContain('root (user 0) without any capability, to read the root-owned journal files');
    expect(text).toContain('runs:       kubelet-journal --since @1795000000');
  });

  it('refuses a journal path, a window, a cap or a read deadline it cannot honour, naming it', () => {
    const run = logRequest.run as Extract<DebugPodRequest['run'], { kind: 'kubelet-log' }>;
    expect(() => debugPodManifest({ ...logRequest, run: { ...run, journalDirs: [] } })).toThrow(/at least one journal directory/);
    expect(() => debugPodManifest({ ...logRequest, run: { ...run, journalDirs: ['var/log/journal'] } })).toThrow(/absolute path/);
    expect(() => debugPodManifest({ ...logRequest, run: { ...run, journalDirs: ['/var/log/../../etc'] } })).toThrow(/absolute path/);
    expect(() => debugPodManifest({ ...logRequest, run: { ...run, untilEpochMs: run.sinceEpochMs - 1 } })).toThrow(/window/);
    expect(() => debugPodManifest({ ...logRequest, run: { ...run, maxBytes: 64 * 1024 * 1024 } })).toThrow(/log cap/);
    expect(() => debugPodManifest({ ...logRequest, run: { ...run, readDeadlineMs: 120_000 } })).toThrow(/read deadline/);
    const { criSocket: _unused, ...withoutSocket } = request;
    expect(() => debugPodManifest(withoutSocket)).toThrow(/CRI socket/);
  });
});
