// The check catalog, in the fixed order the report lists it (the symptom and the lease first, then the
// causes 1–12 of docs/root-causes.md with the known-bad versions beside the kernel, then the two endpoint-level
// checks).

import type { Check } from './check';
import { cniCheck } from './checks/cni';
import { densityCheck } from './checks/density';
import { eventedPlegCheck } from './checks/eventedPleg';
import { eventStormCheck } from './checks/eventStorm';
import { hungMountCheck } from './checks/hungMount';
import { kernelRegressionCheck } from './checks/kernelRegression';
import { knownBadVersionCheck } from './checks/knownBadVersion';
import { leaseLostCheck } from './checks/leaseLost';
import { nodeLoadCheck } from './checks/nodeLoad';
import { plegDeadlockCheck } from './checks/plegDeadlock';
import { plegHealthCheck } from './checks/plegHealth';
import { relistLatencyCheck } from './checks/relistLatency';
import { runtimeHungCheck } from './checks/runtimeHung';
import { startupTransientCheck } from './checks/startupTransient';
import { stuckContainerCheck } from './checks/stuckContainer';
import { syncloopHealthzCheck } from './checks/syncloopHealthz';
import { systemdDbusCheck } from './checks/systemdDbus';

export const CHECK_CATALOG: readonly Check[] = [
  plegHealthCheck,
  leaseLostCheck,
  runtimeHungCheck,
  stuckContainerCheck,
  systemdDbusCheck,
  plegDeadlockCheck,
  densityCheck,
  eventStormCheck,
  cniCheck,
  hungMountCheck,
  nodeLoadCheck,
  kernelRegressionCheck,
  knownBadVersionCheck,
  startupTransientCheck,
  eventedPlegCheck,
  syncloopHealthzCheck,
  relistLatencyCheck,
];
