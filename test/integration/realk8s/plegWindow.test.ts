// The shared PLEG fault window (./plegWindow.ts) on the real kubelet 1.26, with no checks of its own.
import { describePlegWindow } from './plegWindow';

describePlegWindow();
