// EventedPLEG's side of the live feed, as the kubelet's watchEventsChannel runs it: open the runtime's
// GetContainerEvents stream and hand every event to the model; when the stream ends (an error, or even a
// clean EOF, which the kubelet's Recv loop also returns as an error) force a relist, count the failure and
// open the stream again at once, until the model falls back to generic relisting (after
// eventedPlegMaxStreamRetries failures). Then no more streams.
//
// Events wait in a queue as long as the kubelet's: its response channel has the event channel's capacity
// and the stream's reader blocks when it is full. Here a full queue pauses the stream (HTTP/2 flow control
// holds the runtime back); the queue empties into the model whenever no relist is being modelled.

import type { CriContainerEvent } from '../../core/pleg/evented';
import type { CriReader } from '../cri/reader';
import { CriError } from '../cri/criError';
import { GrpcCode } from '../cri/grpc/status';
import { kubeletErrorText } from './criPeriod';
import { sleepUnlessAborted as sleep } from '../sleepUnlessAborted';

/** What the kubelet's stream error reads when the runtime ended the stream cleanly (io.EOF). */
export const STREAM_EOF_TEXT = 'EOF';

export interface EventStreamHooks {
  signal: AbortSignal;
  /** EventedPLEG is (still) in use: while true, streams are (re)opened. */
  inUse(): boolean;
  /** The feed's current runtime connection (connecting when needed); rejects only when the feed stops. */
  reader(): Promise<CriReader>;
  /** Bound on opening the stream: the runtime request timeout. */
  openDeadlineMs(): number;
  /** The kubelet's response channel capacity (the PLEG event channel's). */
  capacity: number;
  /** Ms on the session clock. */
  clock(): number;
  /** An event from the stream, in order; never called while `busy()` is true. */
  event(event: CriContainerEvent, atMs: number): void;
  /** A relist is being fetched or modelled: events wait. */
  busy(): boolean;
  /** The stream failed with the kubelet's error text: run the forced relist (serially with the others). */
  failed(error: string): Promise<void>;
  /** The transport cannot stream (crictl): said once, and no streams are opened. */
  cannotStream(reason: string): void;
  /** The stream's own open deadline passed: said each time (not counted: the kubelet's stream has no deadline). */
  notOpened?(error: string): void;
}

export interface EventStreamWatcher {
  /** Runs until the fallback or the signal. */
  readonly done: Promise<void>;
  /** Hands queued events to the model (call when a relist ends). */
  drain(): void;
}

export function watchContainerEvents(h: EventStreamHooks): EventStreamWatcher {
  const queue: { event: CriContainerEvent; atMs: number }[] = [];
  let current: { pause(): void; resume(): void } | undefined;
  let paused = false;
  const drain = (): void => {
    while (queue.length > 0 && !h.busy()) {
      const next = queue.shift() as { event: CriContainerEvent; atMs: number };
      h.event(next.event, next.atMs);
    }
    if (paused && queue.length < h.capacity) {
      paused = false;
      current?.resume();
    }
  };

  async function run(): Promise<void> {
    while (!h.signal.aborted && h.inUse()) {
      let reader: CriReader;
      try {
        reader = await h.reader();
      } catch {
        return;
      }
      if (h.signal.aborted || !h.inUse()) return;
      if (reader.containerEvents === undefined) {
        h.cannotStream(`${reader.description} cannot open the GetContainerEvents stream`);
        return;
      }
      let error: string;
      try {
        const stream = reader.containerEvents({
          openDeadlineMs: h.openDeadlineMs(),
          signal: h.signal,
          onEvent: (event) => {
            queue.push({ event, atMs: h.clock() });
            if (queue.length >= h.capacity && !paused) {
              paused = true;
              stream.pause();
            }
            drain();
          },
        });
        current = stream;
        await stream.done;
        error = STREAM_EOF_TEXT;
      } catch (err) {
        if (h.signal.aborted) return;
        if (err instanceof CriError && err.code === GrpcCode.DEADLINE_EXCEEDED) {
          // Only our own open deadline gives this (no grpc-timeout is sent): the kubelet would still be
          // waiting on its stream, so nothing is counted; try again after a pause.
          h.notOpened?.(kubeletErrorText(err));
          await sleep(h.openDeadlineMs(), h.signal);
          continue;
        }
        error = kubeletErrorText(err);
      } finally {
        current = undefined;
        paused = false;
      }
      // Events that arrived before the end are the model's before the forced relist.
      drain();
      await h.failed(error);
    }
  }

  return { done: run(), drain };
}
