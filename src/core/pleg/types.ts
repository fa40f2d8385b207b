// Vocabulary of the PLEG model, shared by the generic and evented PLEG, the simulator and the replay CLI.
// Times are milliseconds on the model's clock (the oracle's time base: ms after a base instant).

export type ContainerState = 'running' | 'exited' | 'unknown' | 'created';

export interface RuntimeContainer {
  id: string;
  state: ContainerState;
}

/** One pod as the runtime reports it (sandboxes are containers to PLEG). */
export interface RuntimePod {
  uid: string;
  name: string;
  namespace: string;
  ips?: string[];
  sandboxes: RuntimeContainer[];
  containers: RuntimeContainer[];
  /** The runtime's status timestamp (EventedPLEG cache rules); ms on the model clock. */
  statusTimestampMs?: number;
}

export type PlegEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'ContainerChanged' | 'PodSync' | 'ConditionMet';

export interface PlegEvent {
  pod: string;
  type: PlegEventType;
  data: string;
}

/** Kubelet version families whose PLEG behaves differently (see docs/pleg-model.md). */
export type KubeletProfileId = '1.13' | '1.14-1.25' | '1.26-1.31' | '1.32+';
