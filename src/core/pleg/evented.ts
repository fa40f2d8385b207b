// EventedPLEG (pkg/kubelet/pleg/evented.go, alpha from 1.26): CRI container events turned into cache
// writes and pod lifecycle events, its Healthy(), and the stream-failure fallback to generic relisting.

import type { EventChannel } from './channel';
import type { EventedUsage, GenericPleg } from './generic';
import { PlegConfigurationError } from './generic';
import type { PodCache } from './podCache';
import type { PlegProfile } from './profiles';
import { PLEG_CONSTANTS } from './profiles';
import { createdAtToStamp, DEFAULT_BASE_UNIX_SEC } from './stamp';
import { statusFromPod } from './podStatus';
import type { PlegClock, PlegEvent, PodStatus, RelistReport, RuntimePod } from './types';

export type CriContainerEventType =
  | 'CONTAINER_CREATED_EVENT'
  | 'CONTAINER_STARTED_EVENT'
  | 'CONTAINER_STOPPED_EVENT'
  | 'CONTAINER_DELETED_EVENT';

export const CRI_CONTAINER_EVENT_TYPES: readonly CriContainerEventType[] = [
  'CONTAINER_CREATED_EVENT',
  'CONTAINER_STARTED_EVENT',
  'CONTAINER_STOPPED_EVENT',
  'CONTAINER_DELETED_EVENT',
];

export interface CriContainerEvent {
  type: CriContainerEventType;
  containerId: string;
  /** The raw CRI int64 (runtimes send nanoseconds). */
  createdAt: number | bigint;
  /** The pod status carried by the event; null when the runtime sent no sandbox status. */
  pod: RuntimePod | null;
}

export interface CriEventReport {
  /** The event had no sandbox status and was dropped with an error log. */
  ignored: boolean;
  generated: number;
  delivered: number;
  discarded: number;
}

export interface EventedPlegOptions {
  profile: PlegProfile;
  clock: PlegClock;
  channel: EventChannel;
  cache: PodCache;
  generic: GenericPleg;
  usage: EventedUsage;
  /** Unix seconds of the model clock's 0 (to place createdAt on the clock). */
  baseUnixSec?: number;
  maxStreamRetries?: number;
  /** The generic period/threshold restored on fallback (1 s / 3 min). */
  fallbackPeriodMs?: number;
  fallbackThresholdMs?: number;
  onSend?(event: PlegEvent, delivered: boolean): void;
}

export interface StreamFailureResult {
  /** The forced generic relist (null if the generic PLEG is stuck in a blocking send). */
  relist: RelistReport | null;
  fellBack: boolean;
}

export class EventedPleg {
  private readonly opts: EventedPlegOptions;
  private streamFailures = 0;

  constructor(opts: EventedPlegOptions) {
    if (!opts.profile.hasEventedPleg || opts.profile.eventedCreatedAtUnit === null) {
      throw new PlegConfigurationError(`kubelet ${opts.profile.id} has no EventedPLEG (added in 1.26)`);
    }
    this.opts = opts;
  }

  get inUse(): boolean {
    return this.opts.usage.inUse;
  }

  get failedStreams(): number {
    return this.streamFailures;
  }

  /** Start(): marks evented PLEG in use (the generic PLEG was built with 300 s / 10 min). */
  start(): void {
    this.opts.usage.inUse = true;
  }

  /** Healthy(): unhealthy only when the channel is exactly full. */
  healthy(): { healthy: boolean; error?: string } {
    const ch = this.opts.channel;
    if (ch.length === ch.capacity) {
      return { healthy: false, error: `EventedPLEG: pleg event channel capacity is full with ${ch.length} events` };
    }
    return { healthy: true };
  }

  /** The 5 s global cache time refresh. */
  refreshCacheTime(): void {
    this.opts.cache.updateTime(this.opts.clock.now());
  }

  /**
   * A failed GetContainerEvents stream: forces a generic relist; after `maxStreamRetries` failures the
   * evented PLEG stops and the generic PLEG returns to 1 s / 3 min.
   */
  streamFailed(): StreamFailureResult {
    this.streamFailures++;
    const g = this.opts.generic;
    const relist = g.blockedRelist === null ? g.relist() : null;
    const max = this.opts.maxStreamRetries ?? PLEG_CONSTANTS.eventedMaxStreamRetries;
    let fellBack = false;
    if (this.streamFailures >= max && this.opts.usage.inUse) {
      this.opts.usage.inUse = false;
      g.updateRelistDuration(
        this.opts.fallbackPeriodMs ?? PLEG_CONSTANTS.relistPeriodMs,
        this.opts.fallbackThresholdMs ?? PLEG_CONSTANTS.relistThresholdMs,
      );
      fellBack = true;
    }
    return { relist, fellBack };
  }

  handleEvent(event: CriContainerEvent): CriEventReport {
    const report: CriEventReport = { ignored: false, generated: 0, delivered: 0, discarded: 0 };
    const pod = event.pod;
    if (pod === null) {
      report.ignored = true;
      return report;
    }
    const { cache, profile } = this.opts;
    const uid = pod.uid;
    const generated = statusFromPod(pod);
    const status: PodStatus = { ...generated, ips: cache.retainedIps(uid, generated) };
    let send: boolean;
    if (event.type === 'CONTAINER_DELETED_EVENT') {
      // No cache write; the entry goes only when the deleted ID is the pod's sandbox.
      for (const sb of status.sandboxes) if (sb.id === event.containerId) cache.delete(uid);
      send = true;
    } else {
      const stamp = createdAtToStamp(event.createdAt, profile.eventedCreatedAtUnit ?? 'nanoseconds', this.opts.baseUnixSec ?? DEFAULT_BASE_UNIX_SEC);
      send = cache.set(uid, status, null, stamp);
    }
    if (!send) return report;
    switch (event.type) {
      case 'CONTAINER_CREATED_EVENT':
        break;
      case 'CONTAINER_STARTED_EVENT':
        this.send({ pod: uid, type: 'ContainerStarted', data: event.containerId }, report);
        break;
      case 'CONTAINER_STOPPED_EVENT':
        this.send({ pod: uid, type: 'ContainerDied', data: event.containerId }, report);
        break;
      case 'CONTAINER_DELETED_EVENT':
        this.send({ pod: uid, type: 'ContainerDied', data: event.containerId }, report);
        this.send({ pod: uid, type: 'ContainerRemoved', data: event.containerId }, report);
        break;
    }
    return report;
  }

  private send(event: PlegEvent, report: CriEventReport): void {
    report.generated++;
    const ok = this.opts.channel.trySend(event);
    if (ok) report.delivered++;
    else report.discarded++;
    this.opts.onSend?.(event, ok);
  }
}
