// The kubelet's toKubeContainerState: the CRI container state as the PLEG compares it.

import type { CriContainerState } from '../parse/criTypes';
import type { ContainerState } from './types';

export function containerStateOfCri(state: CriContainerState): ContainerState {
  switch (state) {
    case 'CONTAINER_RUNNING':
      return 'running';
    case 'CONTAINER_EXITED':
      return 'exited';
    case 'CONTAINER_CREATED':
      return 'created';
    case 'CONTAINER_UNKNOWN':
      return 'unknown';
  }
}
