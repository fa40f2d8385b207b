// vitest globalSetup of a realk8s project, one per kit (./globalSetup.ts for 1.26,
// ../realk8s-1.36/globalSetup.ts, ../realk8s-1.22/globalSetup.ts): hands the run a token; the first test
// that needs the cluster starts it (./cluster.ts realCluster, which first takes down a cluster of another
// kit) and writes that token to the kit's owner file. At the end of the run, a cluster this run started
// is taken down and must leave nothing behind (real-cluster.sh check). Runs that include no realk8s test
// never start one, and never touch a cluster of any kit.

import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { type Kit, ownerFile, runTokenKey, takeDown } from './cluster';

export function kitGlobalSetup(kit: Kit): { setup: () => void; teardown: () => void } {
  let token = '';
  return {
    setup: () => {
      token = randomUUID();
      process.env[runTokenKey(kit)] = token;
    },
    teardown: () => {
      let owner: string;
      try {
        owner = readFileSync(ownerFile(kit), 'utf8').trim();
      } catch {
        return;
      }
      if (owner !== token) return;
      rmSync(ownerFile(kit), { force: true });
      takeDown(kit);
    },
  };
}
