// Entry point of dist/logsScanWorker.js: the thread that `pleg-doctor logs` starts on a big file to scan
// segments of it (commands/logsWorker.ts). A bundle of its own, holding the byte scanner and the line
// classifier and nothing else: the worker used to load the whole of dist/cli.js, and on the 1 GB
// benchmark it began scanning 110–200 ms after the main thread did, most of which went to compiling
// what the dispatcher and the other commands pull in.

import { workerData } from 'node:worker_threads';
import { isLogsScanRequest, runLogsScanWorker } from './commands/logsWorker';

if (!isLogsScanRequest(workerData)) throw new Error('logsScanWorker.js runs only as the scan worker of `pleg-doctor logs`');
runLogsScanWorker(workerData);
