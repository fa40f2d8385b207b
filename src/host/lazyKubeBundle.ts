// The loader of dist/kube.js, apart from lazyBundles.ts: the kube bundle holds Diagnose Node, which loads
// the node-access bundle through lazyBundles.ts, so a loader module naming both bundles' types would import
// itself in a ring (lint's no-import-cycle).

import { LAZY_BUNDLES, nextTurn, requireBundle } from './lazyBundles';
import type * as KubeBundle from './lazyKube';

/** The Kubernetes client (createKubeGateway) and the Diagnose Node command. */
export async function loadKubeBundle(): Promise<typeof KubeBundle> {
  await nextTurn();
  return requireBundle<typeof KubeBundle>(LAZY_BUNDLES.kube);
}
