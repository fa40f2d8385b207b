// The parts of Kubernetes API objects that PLEG Doctor reads. Structural subsets of the core/v1 types,
// so that pure code does not depend on @kubernetes/client-node; every field is optional because real
// clusters (and bad input) omit fields.

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string | Date;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface NodeCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string | Date;
  lastTransitionTime?: string | Date;
}

export interface Taint {
  key?: string;
  value?: string;
  effect?: string;
  timeAdded?: string | Date;
}

export interface NodeAddress {
  type?: string;
  address?: string;
}

export interface NodeSystemInfo {
  kubeletVersion?: string;
  containerRuntimeVersion?: string;
  kernelVersion?: string;
  osImage?: string;
  operatingSystem?: string;
  architecture?: string;
  bootID?: string;
  machineID?: string;
}

export interface KubeNode {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { unschedulable?: boolean; taints?: Taint[]; podCIDR?: string; providerID?: string };
  status?: {
    conditions?: NodeCondition[];
    addresses?: NodeAddress[];
    nodeInfo?: NodeSystemInfo;
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
  };
}

export interface KubeEvent {
  metadata?: ObjectMeta;
  involvedObject?: { kind?: string; name?: string; namespace?: string; uid?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  source?: { component?: string; host?: string };
  firstTimestamp?: string | Date;
  lastTimestamp?: string | Date;
  eventTime?: string | Date;
  reportingComponent?: string;
}
