// The shared PLEG fault window (../realk8s/plegWindow.ts) on the real kubelet 1.22 with dockershim: freeze
// stops dockerd. The kit's own checks go in describePlegWindow's argument (KitWindowChecks).
import { describePlegWindow } from '../realk8s/plegWindow';

describePlegWindow();
