// The shared PLEG fault window (../realk8s/plegWindow.ts) on the real kubelet 1.36.2 (../shared/k8s-current:
// containerd frozen; node k136-node on 10.254.136.1).
import { describePlegWindow } from '../realk8s/plegWindow';

describePlegWindow();
