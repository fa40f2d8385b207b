// A KubeClient for the real cluster that records what the reflector asks and what the server answers,
// with an optional hook after each answered list page (to change the cluster between two pages).

import type { KubeClient, Query } from '../../../src/infra/kube/kubeClient';
import { createKubeClient } from '../../../src/infra/kube/kubeClient';
import { loadKubeconfigs } from '../../../src/infra/kube/kubeconfig';

export interface ListCall {
  query: Query;
  /** Names on the page, or the HTTP status of a refusal. */
  names?: string[];
  resourceVersion?: string;
  continueToken?: string;
  errorStatus?: number;
  errorBody?: string;
}

export interface WatchCall {
  query: Query;
  lines: { type: string; resourceVersion?: string; name?: string; code?: number; message?: string }[];
}

export interface RecordingClient {
  client: KubeClient;
  lists: ListCall[];
  watches: WatchCall[];
  afterPage?: (call: ListCall, index: number) => Promise<void>;
}

export async function recordingClient(kubeconfig: string): Promise<RecordingClient> {
  const loaded = loadKubeconfigs([kubeconfig], {});
  const ctx = loaded.contexts[0];
  if (!ctx) throw new Error(`${kubeconfig} has no context`);
  const real = await createKubeClient(ctx);
  const rec: RecordingClient = {
    lists: [],
    watches: [],
    client: {
      server: real.server,
      getText: (p, o) => real.getText(p, o),
      async getJson(path, query, options) {
        const call: ListCall = { query: { ...query } };
        rec.lists.push(call);
        try {
          const answer = (await real.getJson(path, query, options)) as { items?: { metadata?: { name?: string } }[]; metadata?: { resourceVersion?: string; continue?: string } };
          call.names = (answer.items ?? []).map((i) => i.metadata?.name ?? '');
          if (answer.metadata?.resourceVersion !== undefined) call.resourceVersion = answer.metadata.resourceVersion;
          if (answer.metadata?.continue) call.continueToken = answer.metadata.continue;
          await rec.afterPage?.(call, rec.lists.length - 1);
          return answer;
        } catch (err) {
          const e = err as { status?: number; body?: string };
          if (typeof e.status === 'number') call.errorStatus = e.status;
          if (typeof e.body === 'string') call.errorBody = e.body;
          throw err;
        }
      },
      streamLines(path, query, onLine, options) {
        const call: WatchCall = { query: { ...query }, lines: [] };
        rec.watches.push(call);
        return real.streamLines(
          path,
          query,
          (line) => {
            const event = JSON.parse(line) as { type: string; object?: { metadata?: { resourceVersion?: string; name?: string }; code?: number; message?: string } };
            const entry: WatchCall['lines'][number] = { type: event.type };
            const meta = event.object?.metadata;
            if (meta?.resourceVersion !== undefined) entry.resourceVersion = meta.resourceVersion;
            if (meta?.name !== undefined) entry.name = meta.name;
            if (event.object?.code !== undefined) entry.code = event.object.code;
            if (event.object?.message !== undefined) entry.message = event.object.message;
            call.lines.push(entry);
            onLine(line);
          },
          options,
        );
      },
    },
  };
  return rec;
}
