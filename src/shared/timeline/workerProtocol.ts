// Messages between the extension host and the simulation worker (dist/simWorker.js). One worker runs
// one simulation; cancelling means terminating it.

import type { WhatIfResult, WhatIfParams } from '../../core/timeline/whatIf/whatIfTypes';

export interface SimWorkerRequest {
  params: WhatIfParams;
}

export type SimWorkerReply = { ok: true; data: WhatIfResult; elapsedMs: number } | { ok: false; message: string };
