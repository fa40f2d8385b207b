// Runs what-if simulations in a worker thread, one at a time: a new run or cancel() terminates the
// previous worker, whose promise then rejects with SimRunCancelledError.

import { Worker } from 'node:worker_threads';
import type { WhatIfResult, WhatIfParams } from '../../core/timeline/whatIf/whatIfTypes';
import type { SimWorkerReply, SimWorkerRequest } from '../../shared/timeline/workerProtocol';

export class SimRunCancelledError extends Error {
  constructor() {
    super('simulation cancelled');
    this.name = 'SimRunCancelledError';
  }
}

export interface SimResult {
  data: WhatIfResult;
  elapsedMs: number;
}

interface Running {
  worker: Worker;
  reject(error: Error): void;
}

export class SimWorkerClient {
  private running: Running | undefined;

  /** @param scriptPath the built worker bundle (dist/simWorker.js). */
  constructor(private readonly scriptPath: string) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  run(params: WhatIfParams): Promise<SimResult> {
    this.cancel();
    return new Promise<SimResult>((resolve, reject) => {
      const worker = new Worker(this.scriptPath);
      const current: Running = { worker, reject };
      this.running = current;
      const settle = (fn: () => void): void => {
        if (this.running !== current) return;
        this.running = undefined;
        void worker.terminate();
        fn();
      };
      worker.once('message', (reply: SimWorkerReply) => settle(() => (reply.ok ? resolve({ data: reply.data, elapsedMs: reply.elapsedMs }) : reject(new Error(reply.message)))));
      worker.once('error', (error: Error) => settle(() => reject(error)));
      worker.once('exit', (code) => settle(() => reject(new Error(`the simulation worker exited with code ${code} before answering`))));
      const request: SimWorkerRequest = { params };
      worker.postMessage(request);
    });
  }

  /** Stops the run in progress, if any; its promise rejects with SimRunCancelledError. */
  cancel(): void {
    const current = this.running;
    if (current === undefined) return;
    this.running = undefined;
    void current.worker.terminate();
    current.reject(new SimRunCancelledError());
  }

  dispose(): void {
    this.cancel();
  }
}
