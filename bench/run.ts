// `npm run bench`: every benchmark in one run, printed side by side. Not a test: the numbers are read by
// people (and copied into the README), goals are printed next to them, and nothing fails on a slow machine.
// The node-access, live feed and agent benchmarks need root and the real node stack (bash test/support/node-stack.sh up).

import { benchActivation } from './activation';
import { benchAgent } from './agent';
import { benchDiagnose } from './diagnose';
import { benchKube } from './kube';
import { benchLogs } from './logs';
import { benchNodeAccess } from './nodeAccess';
import { benchPleg } from './pleg';
import { benchTimelineFeed } from './timelineFeed';
import { benchTimelineWebview } from './timelineWebview';

const suites: Array<[string, () => Promise<string[]>]> = [
  ['Activation (production bundles)', benchActivation],
  ['PLEG model and simulator', benchPleg],
  ['Kubernetes access and node tree (5,000 nodes)', benchKube],
  ['Node access: CRI snapshot over SSH', benchNodeAccess],
  ['Diagnose Node (API tier on the stand-in, real kubelet recordings)', benchDiagnose],
  ['Kubelet log reader and language server', benchLogs],
  ['Timeline webview (24 h recording, live updates, bundle)', benchTimelineWebview],
  ['Timeline live feed (110 pods over SSH vs node-local)', benchTimelineFeed],
  ['Node agent (110 pods, 1 s period, its own process)', benchAgent],
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  let failed = 0;
  for (const [name, run] of suites) {
    if (only.length > 0 && !only.some((o) => name.toLowerCase().includes(o.toLowerCase()))) continue;
    console.log(`\n## ${name}`);
    try {
      for (const line of await run()) console.log(`  ${line}`);
    } catch (error) {
      failed++;
      console.log(`  could not run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failed > 0) process.exitCode = 1;
}

void main();
