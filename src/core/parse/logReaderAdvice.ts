// What a reader finding means and what to check next, for hovers. Facts from docs/pleg-health.md and docs/pleg-model.md.

import type { ReaderFindingKind } from './logReader';

export interface Advice {
  meaning: string;
  next: string;
}

export const ADVICE: Readonly<Record<ReaderFindingKind, Advice>> = {
  'pleg-stretch': {
    meaning:
      'The kubelet reported "PLEG is not healthy": no relist has *started* successfully for more than the 3 min threshold. ' +
      'The node is Ready=False and the sync loop skips every pass: no pod is created, updated or killed.',
    next:
      'Look just before the first line for "GenericPLEG: Unable to retrieve pods" (a hung runtime: `timeout 10 crictl pods` on the node) ' +
      'or for one pod failing inspection every relist (`crictl inspect` its containers). The longest "last seen active" tells how long relists were stuck.',
  },
  'skipped-sync-stretch': {
    meaning: 'The sync loop skipped its passes because `runtimeErrors()` was non-empty (backoff 100 ms doubling to 5 s). Debug and shell pods cannot start meanwhile.',
    next: 'The reasons name the failing check: "container runtime is down" (CRI Status failing > 30 s) comes before PLEG; check the runtime first.',
  },
  'pleg-never': {
    meaning: 'No relist has succeeded since this kubelet started. Normal for the first seconds.',
    next: 'If it lasts more than 3 min, the first relist is stuck: the runtime hangs or has a very large number of containers.',
  },
  'relist-failure': {
    meaning: 'GetPods (CRI ListPodSandbox + ListContainers) failed: this relist produced nothing and PLEG\'s "last seen" time did not advance.',
    next: '`DeadlineExceeded` means the runtime hung for `runtimeRequestTimeout` (2 min): check `systemctl status containerd`, `crictl -t 10s pods`, and the kernel log for blocked tasks.',
  },
  'event-discard': {
    meaning: 'The PLEG event channel (capacity 1000) was full: events of this relist were dropped (`kubelet_pleg_discard_events`).',
    next: 'The sync loop is not draining events: look for a stalled sync loop or a burst of container changes (mass restarts).',
  },
  'runtime-down': {
    meaning: 'The kubelet\'s periodic CRI Status poll failed or reported not ready; after 30 s without success the Ready message says "container runtime is down".',
    next: 'Check the runtime service and its socket (`crictl info`), and CNI when the network is the part not ready.',
  },
  'evented-fallback': {
    meaning: 'Evented PLEG (alpha gate) failed to stream container events; after 5 failures the kubelet falls back to generic relisting (1 s / 3 min).',
    next: 'containerd < 1.7 has no events API (`GetContainerEvents` is UNIMPLEMENTED); turn the EventedPLEG gate off or upgrade the runtime.',
  },
  'housekeeping-slow': {
    meaning: 'A housekeeping pass blocked the whole sync loop, typically on a runtime call that hit `runtimeRequestTimeout`.',
    next: 'A 2 min housekeeping right before PLEG trouble points at a hung runtime, not at the kubelet.',
  },
  'node-not-ready': {
    meaning: 'The kubelet set Ready=False; the node gets the `node.kubernetes.io/not-ready` taints and, after 300 s, its pods are evicted.',
    next: 'The condition message names the failing checks; match it with the PLEG and sync-skip stretches around this line.',
  },
  'node-ready': {
    meaning: 'The node reported Ready again.',
    next: 'Compare with the last unhealthy line: the gap is how long pods could not be changed on this node.',
  },
  'kubelet-start': {
    meaning: 'A kubelet process started here (its version line).',
    next: 'Startup lines ("yet to be successful", "may not have completed yet") right after this are normal.',
  },
  'kubelet-restart': {
    meaning: 'A new kubelet process (new pid or version line): stretches end here because a new PLEG starts afresh.',
    next: 'From 1.32, systemd restarts a kubelet with `WatchdogSec=` about 5 min into a stuck sync loop; check `journalctl -u kubelet` for the watchdog.',
  },
};
