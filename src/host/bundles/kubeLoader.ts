// The loader of dist/kube.js, apart from loader.ts: the kube bundle holds Diagnose Node, which loads
// the node-access bundle through loader.ts, so a loader module naming both bundles' types would import
// itself in a ring (lint's no-import-cycle).

import { LAZY_BUNDLES, nextTurn, requireBundle } from './loader';
import type * as KubeBundle from './kubeEntry';

/** The Kubernetes client (createKubeGateway) and the Diagnose Node command. */
export async function loadKubeBundle(): Promise<typeof KubeBundle> {
  await nextTurn();
  return requireBundle<typeof KubeBundle>(LAZY_BUNDLES.kube);
}
