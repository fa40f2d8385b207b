// The kubelet's watchEventsChannel loop in the live feed, on scripted streams (the real stream and the
// real containerd are exercised in test/unit/infra/cri/grpc/serverStream.test.ts and the integration tier): which
// stream ends count as failures, when streams stop being opened, and the bounded queue.

import { describe, expect, it } from 'vitest';
import type { CriContainerEvent } from '../../../../src/core/pleg/evented';
import { CriError } from '../../../../src/infra/cri/criError';
import type { ContainerEventsOptions, ContainerEventsStream, CriReader } from '../../../../src/infra/cri/reader';
import { STREAM_EOF_TEXT, watchContainerEvents, type EventStreamHooks } from '../../../../src/infra/timeline/eventStream';

type Script = (options: ContainerEventsOptions, control: { paused: () => boolean }) => Promise<void>;

/** A reader whose n-th stream runs scripts[n] (the last one repeats). */
function readerWith(scripts: Script[]): CriReader & { opened: number } {
  const reader = {
    description: 'scripted',
    opened: 0,
    containerEvents(options: ContainerEventsOptions): ContainerEventsStream {
      const script = scripts[Math.min(reader.opened, scripts.length - 1)] as Script;
      reader.opened++;
      let paused = false;
      return { done: script(options, { paused: () => paused }), pause: () => (paused = true), resume: () => (paused = false) };
    },
  };
  return reader as unknown as CriReader & { opened: number };
}

function hooks(reader: CriReader, over: Partial<EventStreamHooks> = {}): EventStreamHooks & { failures: string[]; events: string[] } {
  const failures: string[] = [];
  const events: string[] = [];
  let inUse = true;
  return {
    failures,
    events,
    signal: new AbortController().signal,
    inUse: () => inUse,
    reader: () => Promise.resolve(reader),
    openDeadlineMs: () => 20,
    capacity: 3,
    clock: () => 0,
    event: (e) => events.push(e.containerId),
    busy: () => false,
    failed: (error) => {
      failures.push(error);
      if (failures.length >= 5) inUse = false;
      return Promise.resolve();
    },
    cannotStream: () => undefined,
    ...over,
  };
}

const ev = (id: string): CriContainerEvent => ({ type: 'CONTAINER_STARTED_EVENT', containerId: id, createdAt: 0n, pod: null });
const unimplemented = (): Promise<void> => Promise.reject(new CriError(12, 'method GetContainerEvents not implemented', 'GetContainerEvents', 1));

describe('watchContainerEvents', () => {
  it('every stream end is a failure (EOF too), with the kubelet error text; no stream after the fallback', async () => {
    const reader = readerWith([() => Promise.resolve(), unimplemented]);
    const h = hooks(reader);
    await watchContainerEvents(h).done;
    expect(h.failures).toEqual([STREAM_EOF_TEXT, ...Array(4).fill('rpc error: code = Unimplemented desc = method GetContainerEvents not implemented')]);
    expect(reader.opened).toBe(5);
  });

  it('its own open deadline is not a failure (the kubelet would still be waiting): the stream is opened again', async () => {
    const deadline = (): Promise<void> => Promise.reject(new CriError(4, 'stream not open within the 20 ms deadline (client-side)', 'GetContainerEvents', 20));
    const reader = readerWith([deadline, deadline, unimplemented]);
    const notOpened: string[] = [];
    const h = hooks(reader, { notOpened: (e) => notOpened.push(e) });
    await watchContainerEvents(h).done;
    expect(notOpened).toHaveLength(2);
    expect(h.failures).toHaveLength(5);
    expect(reader.opened).toBe(7);
  });

  it('a reader that cannot stream (crictl) is said once and nothing is counted', async () => {
    const reasons: string[] = [];
    const h = hooks({ description: 'crictl over ssh' } as CriReader, { cannotStream: (r) => reasons.push(r) });
    await watchContainerEvents(h).done;
    expect(reasons).toEqual(['crictl over ssh cannot open the GetContainerEvents stream']);
    expect(h.failures).toEqual([]);
  });

  it('events wait while a relist runs, up to the capacity (then the stream is paused), and come before the forced relist', async () => {
    let busy = true;
    let pausedAtCapacity = false;
    const watcherRef: { current?: { drain(): void } } = {};
    const reader = readerWith([
      async (o, control) => {
        // Messages arrive after the stream is opened, never during the call that opens it.
        await Promise.resolve();
        for (const id of ['a', 'b', 'c']) o.onEvent(ev(id));
        pausedAtCapacity = control.paused();
        busy = false;
        watcherRef.current?.drain();
        expect(control.paused()).toBe(false);
        o.onEvent(ev('d'));
        throw new CriError(14, 'connection reset', 'GetContainerEvents', 5);
      },
      unimplemented,
    ]);
    const order: string[] = [];
    const h = hooks(reader, {
      busy: () => busy,
      event: (e) => order.push(e.containerId),
      failed: (error) => {
        order.push(`failed: ${error}`);
        return Promise.resolve();
      },
      inUse: () => order.filter((o) => o.startsWith('failed')).length < 2,
    });
    const watcher = watchContainerEvents(h);
    watcherRef.current = watcher;
    await watcher.done;
    expect(pausedAtCapacity).toBe(true);
    expect(order.slice(0, 5)).toEqual(['a', 'b', 'c', 'd', 'failed: rpc error: code = Unavailable desc = connection reset']);
  });
});
