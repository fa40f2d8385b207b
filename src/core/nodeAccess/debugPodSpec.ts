// The debug pod of node access (issue #29): a one-shot pod pinned to one node that runs the agent image's
// CLI against the node's own CRI socket and exits; the client reads its log, then deletes it. This file is
// the pod as a pure function of what it is for, so the manifest sent to the API server, the confirmation
// the user reads before it is created, and the tests are the same object.
//
// Least privilege: the pod has exactly what its one job needs, and each grant says why below. What it
// does NOT have, and when it will:
// - hostPID: the CRI snapshot speaks to the runtime over its socket; it never looks at the node's
//   processes. It becomes needed with the node probes (process state of the runtime, D-state tasks:
//   /proc of the host), which over SSH run as shell commands and have no in-image form yet.
// - the journal: only the `kubelet-log` run mounts it (below), read-only, the directories asked for and no
//   more; the CRI snapshot does not see it.
// - a service-account token, any capability, a writable root filesystem, privilege escalation; root, but
//   for the `kubelet-log` run, see there.
//
// The `kubelet-log` run ("Open Kubelet Log from Node" without SSH) runs `pleg-doctor kubelet-journal`, the
// image's own reader of journald's files (the image has no journalctl). It has no CRI socket. It runs as
// user 0, with every capability still dropped: journald creates its files 0640, owned by root and by a
// group (systemd-journal) whose number differs between distributions (journal-file.c, journald's
// tmpfiles.d/systemd.conf), so no fixed non-root user or group can read them; root without
// CAP_DAC_OVERRIDE reads them as their owner and nothing that its mode bits do not allow.

export const DEBUG_POD_NAME_LABEL = 'app.kubernetes.io/name';
export const DEBUG_POD_NAME_VALUE = 'pleg-doctor-debug';
export const DEBUG_POD_MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const DEBUG_POD_MANAGED_BY_VALUE = 'pleg-doctor';
/** The label selector that finds every debug pod PLEG Doctor made (the leftover sweep's). */
export const DEBUG_POD_SELECTOR = `${DEBUG_POD_NAME_LABEL}=${DEBUG_POD_NAME_VALUE},${DEBUG_POD_MANAGED_BY_LABEL}=${DEBUG_POD_MANAGED_BY_VALUE}`;
/** Where the node's CRI socket appears inside the pod: the node's own path (what the snapshot reports). */
export const DEBUG_POD_CONTAINER = 'snapshot';
/** The container of the `kubelet-log` run. */
export const DEBUG_POD_LOG_CONTAINER = 'kubelet-log';

/** The image's non-root user and group (deploy/image/Dockerfile `USER 65532:65532`). */
const IMAGE_USER = 65532;

/** What the pod runs; each kind brings its own mounts (see the header). */
export type DebugPodRun =
  | {
      kind: 'cri-snapshot';
      /** Per-call deadline of the CRI calls inside the pod (the snapshot's `--timeout`). */
      callDeadlineMs: number;
    }
  | {
      kind: 'kubelet-log';
      /** The window, as `journalctl --since/--until @S` takes it: whole seconds. */
      sinceEpochMs: number;
      untilEpochMs: number;
      /** Journal directories on the node, each mounted read-only at its own path (journalctl -D reads each). */
      journalDirs: string[];
      /** The reader's byte cap and deadline inside the pod (`--max-bytes`, `--timeout`). */
      maxBytes: number;
      readDeadlineMs: number;
    };

/** The kubelet's container log rotates at containerLogMaxSize, 10 MiB by default (KubeletConfiguration): a
 * journal the pod prints must stay below it, or the log read back would start part way. */
export const KUBELET_LOG_MAX_BYTES = 8 * 1024 * 1024;

export interface DebugPodRequest {
  node: string;
  namespace: string;
  image: string;
  /** The CRI socket's path on the node (a unix socket), mounted at the same path in the pod: the `cri-snapshot` run's. */
  criSocket?: string;
  run: DebugPodRun;
  /** activeDeadlineSeconds: the kubelet kills the pod this long after it started, whoever is still waiting. */
  deadlineSeconds: number;
  /** Random suffix of the name (a-z0-9, 5 characters, as the API server's generateName uses). */
  suffix: string;
}

/** The parts of a v1 Pod this manifest uses (a JSON object sent as is). */
export interface DebugPodManifest {
  apiVersion: 'v1';
  kind: 'Pod';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: {
    nodeName: string;
    restartPolicy: 'Never';
    activeDeadlineSeconds: number;
    automountServiceAccountToken: false;
    enableServiceLinks: false;
    hostNetwork: boolean;
    hostPID?: boolean;
    priorityClassName: string;
    terminationGracePeriodSeconds: number;
    tolerations: { operator: 'Exists' }[];
    securityContext: {
      runAsNonRoot: boolean;
      runAsUser: number;
      runAsGroup: number;
      supplementalGroups: number[];
      seccompProfile: { type: 'RuntimeDefault' };
    };
    containers: {
      name: string;
      image: string;
      imagePullPolicy: 'IfNotPresent';
      args: string[];
      resources: { requests: Record<string, string>; limits: Record<string, string> };
      securityContext: { readOnlyRootFilesystem: true; allowPrivilegeEscalation: false; capabilities: { drop: ['ALL'] } };
      volumeMounts: { name: string; mountPath: string; readOnly: true }[];
    }[];
    volumes: { name: string; hostPath: { path: string; type: 'Socket' | 'Directory' | 'File' } }[];
  };
}

const NODE_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const SUFFIX = /^[a-z0-9]{5}$/;

/** An absolute path with no "..": it becomes a hostPath. */
function isNodePath(p: string | undefined): p is string {
  return p !== undefined && p.startsWith('/') && !p.split('/').includes('..') && !/[\s]/.test(p);
}

/** Checks the request; each bad field is an error that names it (these end up in an API path or a hostPath). */
export function checkDebugPodRequest(req: DebugPodRequest): void {
  if (!NODE_NAME.test(req.node)) throw new Error(`debug pod: "${req.node}" is not a valid node name`);
  if (!NAMESPACE.test(req.namespace)) throw new Error(`debug pod: "${req.namespace}" is not a valid namespace name`);
  if (req.image.trim() === '' || /\s/.test(req.image)) throw new Error(`debug pod: image ${JSON.stringify(req.image)} is not an image reference`);
  if (req.run.kind === 'cri-snapshot' && !isNodePath(req.criSocket)) throw new Error(`debug pod: the CRI socket must be an absolute path on the node, got ${JSON.stringify(req.criSocket)}`);
  if (req.run.kind === 'kubelet-log') {
    const run = req.run;
    if (run.journalDirs.length === 0) throw new Error('debug pod: the kubelet-log run needs at least one journal directory');
    for (const dir of run.journalDirs) if (!isNodePath(dir)) throw new Error(`debug pod: a journal directory must be an absolute path on the node, got ${JSON.stringify(dir)}`);
    if (!Number.isFinite(run.sinceEpochMs) || !Number.isFinite(run.untilEpochMs) || run.sinceEpochMs < 0 || run.untilEpochMs < run.sinceEpochMs) {
      throw new Error(`debug pod: the log window must be two times after 1970 in order, got ${run.sinceEpochMs}..${run.untilEpochMs}`);
    }
    if (!Number.isInteger(run.maxBytes) || run.maxBytes < 1 || run.maxBytes > KUBELET_LOG_MAX_BYTES) throw new Error(`debug pod: the log cap must be 1 to ${KUBELET_LOG_MAX_BYTES} bytes, got ${run.maxBytes}`);
    if (!Number.isInteger(run.readDeadlineMs) || run.readDeadlineMs < 1 || run.readDeadlineMs >= req.deadlineSeconds * 1000) {
      throw new Error(`debug pod: the read deadline must be under the pod's deadline (${req.deadlineSeconds} s), got ${run.readDeadlineMs} ms`);
    }
  }
  if (!Number.isInteger(req.deadlineSeconds) || req.deadlineSeconds < 10 || req.deadlineSeconds > 3600) {
    throw new Error(`debug pod: the deadline must be 10 to 3600 s, got ${req.deadlineSeconds}`);
  }
  if (!SUFFIX.test(req.suffix)) throw new Error(`debug pod: the name suffix must be 5 of a-z0-9, got ${JSON.stringify(req.suffix)}`);
}

/** The pod's arguments to the image's entrypoint (`node /opt/pleg-doctor/cli.js`). */
function argsOf(req: DebugPodRequest): string[] {
  switch (req.run.kind) {
    case 'cri-snapshot':
      // `pleg-doctor snapshot --cri-socket`: the one-shot local snapshot (src/cli/commands/localSnapshot.ts),
      // the same NodeSnapshotReport document the SSH path prints, on stdout, hence in the pod's log.
      return ['snapshot', '--cri-socket', req.criSocket as string, '--timeout', String(req.run.callDeadlineMs)];
    case 'kubelet-log':
      // `pleg-doctor kubelet-journal` (src/cli/commands/kubeletJournal.ts): journalctl's short-precise lines
      // on stdout, its summary line last on stderr; both end up in the pod's log.
      return [
        'kubelet-journal',
        '--since',
        `@${Math.floor(req.run.sinceEpochMs / 1000)}`,
        '--until',
        `@${Math.floor(req.run.untilEpochMs / 1000)}`,
        ...req.run.journalDirs.flatMap((d) => ['--journal-dir', d]),
        '--max-bytes',
        String(req.run.maxBytes),
        '--timeout',
        String(req.run.readDeadlineMs),
      ];
  }
}

/** The host paths the run reads, each mounted read-only at its own path. */
function mountsOf(req: DebugPodRequest): { name: string; path: string; type: 'Socket' | 'Directory' }[] {
  switch (req.run.kind) {
    case 'cri-snapshot':
      return [{ name: 'cri-socket', path: req.criSocket as string, type: 'Socket' }];
    case 'kubelet-log':
      // Directory, not DirectoryOrCreate: a directory the node does not have fails the mount (the kubelet's
      // FailedMount event names it) rather than being created on the node.
      return req.run.journalDirs.map((path, i) => ({ name: `journal-${i}`, path, type: 'Directory' }));
  }
}

export function debugPodManifest(req: DebugPodRequest): DebugPodManifest {
  checkDebugPodRequest(req);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${DEBUG_POD_NAME_VALUE}-${req.suffix}`,
      namespace: req.namespace,
      // How a leftover is found (DEBUG_POD_SELECTOR) and who made it.
      labels: { [DEBUG_POD_NAME_LABEL]: DEBUG_POD_NAME_VALUE, [DEBUG_POD_MANAGED_BY_LABEL]: DEBUG_POD_MANAGED_BY_VALUE },
    },
    spec: {
      // Bound to the node directly: no scheduler involved, so it runs where it was asked even on a node the
      // scheduler would skip (NotReady, cordoned, full).
      nodeName: req.node,
      restartPolicy: 'Never',
      // A client that crashed or lost the API server cannot delete its pod; the kubelet then stops it.
      activeDeadlineSeconds: req.deadlineSeconds,
      // It never calls the API server.
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      // The pod sandbox of a hostNetwork pod needs no CNI plugin; a node whose pod network is broken
      // (NetworkReady=false is one way to NotReady) can still run it. The process listens on nothing. As
      // `kubectl debug node/NAME` does.
      hostNetwork: true,
      // The agent's class (deploy/kubernetes/daemonset.yaml): admitted on a node under pressure.
      priorityClassName: 'system-node-critical',
      terminationGracePeriodSeconds: 1,
      // Every taint, as `kubectl debug node/NAME` sets: the node in trouble carries not-ready/unreachable.
      tolerations: [{ operator: 'Exists' }],
      securityContext:
        req.run.kind === 'kubelet-log'
          ? // Root without capabilities: the only user that reads journald's 0640 root-owned files on every
            // distribution (see the header).
            { runAsNonRoot: false, runAsUser: 0, runAsGroup: 0, supplementalGroups: [], seccompProfile: { type: 'RuntimeDefault' } }
          : {
              // Not root. The CRI socket is root:root 0660 on common installs (containerd, CRI-O), so the pod
              // joins group 0 to connect to it, as the agent does; where a socket is 0600 only root reaches it.
              runAsNonRoot: true,
              runAsUser: IMAGE_USER,
              runAsGroup: IMAGE_USER,
              supplementalGroups: [0],
              seccompProfile: { type: 'RuntimeDefault' },
            },
      containers: [
        {
          name: req.run.kind === 'kubelet-log' ? DEBUG_POD_LOG_CONTAINER : DEBUG_POD_CONTAINER,
          image: req.image,
          imagePullPolicy: 'IfNotPresent',
          args: argsOf(req),
          // Node 20 and the CLI bundle for one snapshot; the limit bounds what it can take from a node in trouble.
          resources: { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          // Read-only: connecting to a unix socket does not write the file; reading the journal neither.
          volumeMounts: mountsOf(req).map((m) => ({ name: m.name, mountPath: m.path, readOnly: true as const })),
        },
      ],
      volumes: mountsOf(req).map((m) => ({ name: m.name, hostPath: { path: m.path, type: m.type } })),
    },
  };
}

/** Node names and the like are shown as the API will see them; the deadline in words. */
function seconds(n: number): string {
  return n % 60 === 0 ? `${n / 60} min` : `${n} s`;
}

/**
 * What is about to be created, in words, read from the manifest itself (so it cannot drift from what is
 * sent): the CLI's prompt and the editor's modal show this text.
 */
export function debugPodConfirmation(manifest: DebugPodManifest): string {
  const spec = manifest.spec;
  const container = spec.containers[0];
  const sc = spec.securityContext;
  const privileges = [
    spec.hostNetwork ? "the node's network namespace (hostNetwork)" : undefined,
    spec.hostPID === true ? "the node's process namespace (hostPID)" : undefined,
    ...spec.volumes.map((v) => {
      const mount = container?.volumeMounts.find((m) => m.name === v.name);
      return `${v.hostPath.path} from the node, ${mount?.readOnly === true ? 'read-only' : 'writable'}`;
    }),
    sc.runAsUser === 0 ? 'root (user 0) without any capability, to read the root-owned journal files' : `user ${sc.runAsUser}${sc.supplementalGroups.includes(0) ? ' with group 0 (root group, for the socket)' : ''}`,
    `priority class ${spec.priorityClassName}`,
    'tolerates every taint',
  ].filter((s): s is string => s !== undefined);
  return [
    `Create pod ${manifest.metadata.namespace}/${manifest.metadata.name} on node ${spec.nodeName}?`,
    `  image:      ${container?.image ?? '(none)'}`,
    `  runs:       ${(container?.args ?? []).join(' ')}`,
    `  privileges: ${privileges.join('; ')}`,
    `  no service-account token, no capabilities, read-only root filesystem`,
    `  deadline:   the kubelet stops it after ${seconds(spec.activeDeadlineSeconds)}; it is deleted as soon as its output is read`,
  ].join('\n');
}
