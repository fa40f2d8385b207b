// The what-if simulation off the extension host's thread: a large run would otherwise block every
// extension. The host terminates this worker to cancel a run.

import { parentPort } from 'node:worker_threads';
import { runWhatIf } from '../core/timeline/whatIf/whatIfTimeline';
import type { SimWorkerReply, SimWorkerRequest } from '../shared/timeline/workerProtocol';
import { errorText } from '../core/util/errorText';

const port = parentPort;
if (port === null) throw new Error('simWorker.js must run as a worker thread');

port.once('message', (request: SimWorkerRequest) => {
  const started = Date.now();
  let reply: SimWorkerReply;
  try {
    reply = { ok: true, data: runWhatIf(request.params), elapsedMs: Date.now() - started };
  } catch (error) {
    reply = { ok: false, message: errorText(error) };
  }
  port.postMessage(reply);
});
