// Entry point of dist/logsScanWorker.js: the thread that `pleg-doctor logs` starts on a big file to scan
// segments of it (commands/logsWorker.ts). A bundle of its own, holding the byte scanner and nothing
// else (36 KB): the worker used to load the whole of dist/cli.js (235 KB). Most of a worker's start is
// Node's own: in Node 20 a worker compiles the runtime's modules from source (about 80 ms of CPU in a
// profile of the 1 GB benchmark), so the worker begins scanning some 130–200 ms after the main thread.

import { workerData } from 'node:worker_threads';
import { isLogsScanRequest, runLogsScanWorker } from './commands/logsWorker';

if (!isLogsScanRequest(workerData)) throw new Error('logsScanWorker.js runs only as the scan worker of `pleg-doctor logs`');
runLogsScanWorker(workerData);
