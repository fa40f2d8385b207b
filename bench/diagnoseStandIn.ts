// The API stand-in for bench/diagnose.ts, in its own process: the benchmark measures the event-loop delay
// of the process that diagnoses, and the stand-in's own work (serialising nodes, serving a 2 MB /metrics
// per NotReady node) must not be counted in it. Started with fork(); answers over IPC:
//   parent → { count, plegEvery }      child → { url, nodes, notReady }
//   parent → 'close'                   child exits once the server is closed.

import { startFakeApiServer } from '../src/demo/apiServer/server';
import { makeFleet } from '../src/demo/nodeFactory';
import { recordedKubelets } from '../test/integration/diagnose/recordedKubelets';

interface Start {
  count: number;
  plegEvery: number;
}

function send(message: unknown): void {
  if (process.send === undefined) throw new Error('bench/diagnoseStandIn.ts runs as a child process (fork) only');
  process.send(message);
}

process.once('message', (start: Start) => {
  void (async () => {
    const nodes = makeFleet(start.count, { prefix: 'bench', plegEvery: start.plegEvery });
    const notReady = nodes.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status !== 'True')).map((n) => n.metadata?.name ?? '');
    const notReadySet = new Set(notReady);
    const server = await startFakeApiServer({ nodes });
    server.setNodeProxy(recordedKubelets((n) => notReadySet.has(n)));
    process.on('message', (message) => {
      if (message === 'close') void server.close().then(() => process.exit(0));
    });
    send({ url: server.url, nodes, notReady });
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
