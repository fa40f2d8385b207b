// The live feed of one node's PLEG timeline. Two loops until the signal aborts:
//  - CRI (when SSH is available): every period (sliding, like the kubelet's relist), list the runtime,
//    fetch the statuses the model asks for, and run the period through the kubelet's PLEG model. Every
//    call has the runtime request timeout as its deadline, so a frozen runtime gives failing relists; a
//    ticker keeps Healthy() moving while a call hangs.
//  - kubelet (when a cluster is available): /metrics through the node proxy every few seconds, and the
//    Node itself through a watch of that one object, apart from the scrape: a frozen runtime makes
//    /metrics hang for its whole deadline, and the Ready lane must not wait for it. The node agent reads
//    /metrics and the kubelet's configuration on the node itself instead (`kubelet`), and watches the Node
//    through its in-cluster gateway.
// The feed keeps its own copy of the session it emits, so that it can say what it predicts (the runtime
// down post, PLEG's crossing, the NotReady post, the Ready post: postPredictions.ts) the moment the
// evidence changes; predictions go into the session as they are made.
// Everything reaches the caller as SessionDelta records.

import { performance } from 'node:perf_hooks';
import { parseKubeletConfigz } from '../../core/parse/kubeletConfigz';
import { readOnDemandGate } from '../../core/pleg/onDemandGate';
import { PLEG_CONSTANTS, parseKubeletVersion, profileForKubeletVersion } from '../../core/pleg/profiles';
import type { CriListing } from '../../core/timeline/criListing';
import { listingOk } from '../../core/timeline/criListing';
import { KubeletSampler } from '../../core/timeline/kubeletSampler';
import { LivePlegModel } from '../../core/timeline/liveModel';
import { kubeletOnlySettings, newTimelineSession } from '../../core/timeline/newSession';
import { PredictionTracker, predictPosts } from '../../core/timeline/postPredictions';
import { StallDetector } from '../../core/timeline/runtimeStall';
import { applySessionDelta, type KubeletSample, type RuntimeStall, type SessionDelta, type SessionSettings } from '../../core/timeline/session';
import type { Logger } from '../../core/util/logger';
import { silentLogger } from '../../core/util/logger';
import type { CriReader } from '../cri/reader';
import { fetchKubeletEndpoint } from '../diagnose/fetchKubeletEndpoint';
import type { KubeGateway } from '../kube/gateway';
import { fetchPodStatus, listRuntime, PeriodAbortedError, type CallObserver } from './criPeriod';
import { watchContainerEvents } from './eventStream';
import { fetchNode, readNode, sampleOfScrape, scrapeKubelet, type KubeletPollTarget } from './kubeletPoller';
import { NodeStatusChanges, watchNodeStatus } from './nodeStatusWatch';
import type { Fetched } from '../../core/diagnose/evidence';
import type { KubeletConfigz } from '../../core/parse/kubeletEndpointTypes';
import { sleepUnlessAborted as sleep } from '../sleepUnlessAborted';
import { errorText } from '../../core/util/errorText';

export const DEFAULT_METRICS_INTERVAL_MS = 5_000;
export const DEFAULT_KUBE_TIMEOUT_MS = 10_000;

export interface LiveFeedOptions {
  node: string;
  /** The model's settings; `profile` is replaced by the node's kubelet version when the cluster tells it. */
  settings: SessionSettings;
  /**
   * Take runtimeRequestTimeout, maxPods and the EventedPLEG gate from the kubelet's /configz when it can
   * be read (the user did not set them).
   */
  settingsFromConfigz?: boolean;
  /** Opens the CRI client over the node's (pooled) SSH connection; absent: no SSH, metrics and conditions only. */
  connectCri?: (signal: AbortSignal) => Promise<CriReader>;
  /** Why there is no SSH (said in `lacks`). */
  noCriReason?: string;
  kube?: { gateway: KubeGateway; context: string; intervalMs?: number; timeoutMs?: number };
  /**
   * The kubelet read on its own node (the agent), in place of the node proxy: `metrics` scrapes its port
   * directly, `config` reads its configuration (the config file) instead of /configz. With `kubelet` the
   * metrics loop runs even without `kube`, and `kube` serves the Node (Ready lane, version) only.
   */
  kubelet?: KubeletOnNode;
  signal: AbortSignal;
  onDelta: (delta: SessionDelta) => void;
  logger?: Logger;
  /** ms since t = 0; default: performance.now() at the call. */
  clock?: () => number;
  /** How often Healthy() is re-evaluated while a call hangs (default: the period, at most 1 s). */
  tickMs?: number;
}


export interface KubeletOnNode {
  metrics: (timeoutMs: number, signal: AbortSignal) => Promise<Fetched<string>>;
  config?: (signal: AbortSignal) => Promise<Fetched<KubeletConfigz>>;
  /** The permission a 403 on `metrics` lacks, for the session's `lacks`. */
  metricsPermission: string;
  /** Where `config` reads from, for the log. */
  configSource: string;
  /** Between scrapes (default DEFAULT_METRICS_INTERVAL_MS). */
  intervalMs?: number;
}

export async function runLiveFeed(options: LiveFeedOptions): Promise<void> {
  const { signal, onDelta } = options;
  const logger = options.logger ?? silentLogger;
  const t0 = performance.now();
  const clock = options.clock ?? (() => Math.round((performance.now() - t0) * 100) / 100);
  const lacks = new Map<string, string>();
  const setLack = (key: string, text: string | undefined): boolean => {
    const had = lacks.get(key);
    if (text === undefined) lacks.delete(key);
    else lacks.set(key, text);
    return had !== text;
  };
  // Without CRI no model runs, and the threshold is the kubelet's own, whatever was asked for.
  const asked = options.connectCri === undefined ? kubeletOnlySettings(options.settings) : options.settings;
  // The session as the caller will have it, to predict from; predictions join the delta that moved them.
  const mirror = newTimelineSession({ node: options.node, source: 'live', startedAt: new Date(Date.now() - clock()), settings: asked });
  const tracker = new PredictionTracker();
  const emit = (delta: SessionDelta, lacksChanged = false): void => {
    if (signal.aborted) return;
    if (lacksChanged) delta.lacks = [...lacks.values()];
    applySessionDelta(mirror, delta);
    const now = Math.max(delta.durationMs, clock());
    const predictions = tracker.update(now, predictPosts(mirror, now));
    if (predictions.length > 0) {
      delta.predictions = [...(delta.predictions ?? []), ...predictions];
      applySessionDelta(mirror, { durationMs: delta.durationMs, predictions });
    }
    onDelta(delta);
  };

  const target: KubeletPollTarget | undefined =
    options.kube === undefined
      ? undefined
      : { gateway: options.kube.gateway, context: options.kube.context, node: options.node, timeoutMs: options.kube.timeoutMs ?? DEFAULT_KUBE_TIMEOUT_MS };
  if (options.connectCri === undefined) setLack('cri', options.noCriReason ?? 'no SSH access to this node: no model relists; the timeline shows the kubelet\u2019s own metrics and the Ready condition only');
  if (target === undefined) setLack('kube', options.kubelet === undefined ? 'no cluster connection: no kubelet metrics and no Ready condition' : 'no cluster connection: no Ready condition');
  const timeoutMs = options.kube?.timeoutMs ?? DEFAULT_KUBE_TIMEOUT_MS;
  // Where the kubelet's configuration comes from: the agent's config file, else /configz through the proxy.
  const readConfig: ((signal: AbortSignal) => Promise<Fetched<KubeletConfigz>>) | undefined =
    options.kubelet?.config ??
    (target !== undefined && options.settingsFromConfigz === true
      ? (s) => fetchKubeletEndpoint({ path: '/configz', parse: parseKubeletConfigz }, { gateway: target.gateway, context: target.context, node: options.node, timeoutMs: target.timeoutMs, signal: s })
      : undefined);
  const configSource = options.kubelet?.config !== undefined ? options.kubelet.configSource : '/configz';

  // What the node says about itself before the model starts: its kubelet version picks the profile.
  let settings = { ...asked };
  const nodeChanges = new NodeStatusChanges();
  const zeroEpochMs = (): number => Date.now() - clock();
  let configzGates: Record<string, boolean> | undefined;
  let initial: SessionDelta = { durationMs: 0 };
  if (target !== undefined) {
    const got = await fetchNode(target, signal);
    if ('node' in got) {
      const reading = readNode(got.node);
      // The Node as it is when the feed starts (its Ready, PLEGAtRisk, last post, versions), at t = clock().
      initial = { ...nodeChanges.seen(reading, clock(), false, zeroEpochMs()), durationMs: 0 };
      if (reading.kubeletVersion !== undefined) {
        try {
          settings.profile = profileForKubeletVersion(reading.kubeletVersion).id;
        } catch {
          logger.warn(`timeline of ${options.node}: kubelet version "${reading.kubeletVersion}" not understood; modelling ${settings.profile}`);
        }
      }
      if (reading.maxPods !== undefined) settings.maxPods = reading.maxPods;
    } else {
      logger.warn(`timeline of ${options.node}: ${got.error}`);
    }
  }
  if (readConfig !== undefined && !signal.aborted) {
    const configz = await readConfig(signal);
    if (configz.status === 'ok') {
      configzGates = configz.value.featureGates;
      settings = {
        ...settings,
        runtimeRequestTimeoutMs: configz.value.runtimeRequestTimeoutMs,
        evented: configz.value.featureGates['EventedPLEG'] === true,
        ...(configz.value.maxPods !== undefined ? { maxPods: configz.value.maxPods } : {}),
        ...(configz.value.nodeStatusUpdateFrequencyMs !== undefined ? { nodeStatusUpdateFrequencyMs: configz.value.nodeStatusUpdateFrequencyMs } : {}),
      };
    } else {
      // The agent's config file is its only source: say so loudly; /configz is optional for the panel.
      (options.kubelet?.config !== undefined ? logger.warn : logger.info).call(logger, `timeline of ${options.node}: ${configSource} not read (${configz.status}${'message' in configz ? `: ${configz.message}` : ''}); keeping runtimeRequestTimeout ${settings.runtimeRequestTimeoutMs} ms`);
    }
  }
  if (signal.aborted) return;
  // 1.36+: the PLEGOnDemandRelist gate from the configz read above, else the version's default; the first
  // /metrics scrape that exports it replaces either (kubeletLoop).
  const minor = kubeletMinor(nodeChanges.kubeletVersion);
  const gate = readOnDemandGate({ configzGates, minor });
  if (gate !== undefined) settings = { ...settings, onDemandRelist: gate };
  const model = new LivePlegModel({ settings, epochMs: Math.round(Date.now() - clock()) });
  initial.settings = model.settings;
  emit(initial, true);

  const loops: Promise<void>[] = [];
  if (options.connectCri !== undefined) loops.push(criLoop(options.connectCri));
  const direct = options.kubelet;
  if (direct !== undefined) {
    loops.push(kubeletLoop(async (sampler, s) => sampleOfScrape(await direct.metrics(timeoutMs, s), sampler, Date.now()), direct.metricsPermission));
  } else if (target !== undefined) {
    loops.push(kubeletLoop((sampler, s) => scrapeKubelet(target, sampler, s), 'get on nodes/proxy'));
  }
  if (target !== undefined) {
    loops.push(watchNodeStatus({ ...target, changes: nodeChanges, clock, zeroEpochMs, signal, logger, onDelta: (delta, trouble) => emit(delta, setLack('node', trouble)) }));
  }
  await Promise.all(loops);

  async function criLoop(connect: (signal: AbortSignal) => Promise<CriReader>): Promise<void> {
    // The feed's own period: the generic relist period, and (while EventedPLEG is in use, relisting only
    // every 300 s) how often Healthy() is looked at between relists.
    const period = (): number => options.settings.relistPeriodMs;
    let reader: CriReader | undefined;
    let connecting: Promise<CriReader> | undefined;
    /** The runtime connection shared by the relists and the event stream; rejects only when the feed stops. */
    const currentReader = (): Promise<CriReader> => {
      if (reader !== undefined) return Promise.resolve(reader);
      connecting ??= (async () => {
        try {
          for (;;) {
            if (signal.aborted) throw new PeriodAbortedError('live feed stopped');
            try {
              reader = await connect(signal);
              if (setLack('cri', undefined)) emit({ durationMs: clock() }, true);
              return reader;
            } catch (err) {
              if (signal.aborted) throw new PeriodAbortedError('live feed stopped');
              const changed = setLack('cri', `cannot reach the runtime over SSH: ${errorText(err)} (retrying)`);
              logger.warn(`timeline of ${options.node}: CRI connection failed: ${errorText(err)}`);
              emit(model.advance(clock()), changed);
              await sleep(Math.max(period(), 5_000), signal);
            }
          }
        } finally {
          connecting = undefined;
        }
      })();
      return connecting;
    };
    // When the runtime stops answering (and answers again), from the relists' own calls.
    const stalls = new StallDetector(() => settings.runtimeRequestTimeoutMs);
    const stallDelta = (stall: RuntimeStall | undefined): void => {
      if (stall !== undefined) emit({ durationMs: clock(), stalls: [stall] });
    };
    const observer: CallObserver = {
      started: () => stalls.callStarted(clock()),
      ended: (outcome) => stallDelta(stalls.callEnded(clock(), outcome)),
    };
    // The kubelet's relists are serial (its relist lock): a forced one waits for the periodic one.
    let relisting: Promise<void> = Promise.resolve();
    let busy = false;
    const serially = (run: () => Promise<void>): Promise<void> => {
      const next = relisting.then(async () => {
        busy = true;
        try {
          await run();
        } finally {
          busy = false;
          watcher?.drain();
        }
      });
      relisting = next.catch(() => undefined);
      return next;
    };
    /** One relist on a fresh listing; the connection is dropped when it broke (not for a slow runtime). */
    const relistOnce = async (streamError: string | null): Promise<void> => {
      const r = await currentReader();
      if (await onePeriod(r, streamError)) {
        r.close();
        if (reader === r) reader = undefined;
      }
    };

    const watcher = model.eventedInUse
      ? watchContainerEvents({
          signal,
          inUse: () => model.eventedInUse,
          reader: currentReader,
          openDeadlineMs: () => settings.runtimeRequestTimeoutMs,
          capacity: PLEG_CONSTANTS.channelCapacity,
          clock,
          busy: () => busy,
          event: (event, atMs) => emit(model.containerEvent(event, atMs)),
          failed: (error) =>
            serially(async () => {
              if (!model.eventedInUse) return;
              await relistOnce(error);
              // After the fallback the restarted generic PLEG relists at once.
              if (!model.eventedInUse && model.relistDue(clock())) await relistOnce(null);
            }).catch((err: unknown) => {
              if (!(err instanceof PeriodAbortedError) && !signal.aborted) throw err;
            }),
          cannotStream: (reason) => {
            logger.warn(`timeline of ${options.node}: ${reason}`);
            emit({ durationMs: clock() }, setLack('evented', `EventedPLEG: ${reason}; the model relists every ${PLEG_CONSTANTS.eventedRelistPeriodMs / 1000} s and sees no container events`));
          },
          notOpened: (error) => logger.info(`timeline of ${options.node}: GetContainerEvents not open yet (${error}); the kubelet's stream would still be waiting`),
        })
      : undefined;

    try {
      while (!signal.aborted) {
        if (model.relistDue(clock())) await serially(() => relistOnce(null));
        else emit(model.advance(clock()));
        const due = model.nextRelistDueMs;
        await sleep(due === null ? period() : Math.max(0, Math.min(period(), due - clock())), signal);
      }
    } catch (err) {
      if (!(err instanceof PeriodAbortedError) && !signal.aborted) throw err;
    } finally {
      await watcher?.done;
      reader?.close();
    }

    /** One relist (forced by a failed event stream when `streamError` is set); true when the connection broke. */
    async function onePeriod(r: CriReader, streamError: string | null): Promise<boolean> {
      const deadlineMs = settings.runtimeRequestTimeoutMs;
      const start = clock();
      let getPodsOkAt: number | undefined;
      // While a call hangs, Healthy() still turns false on time.
      const tick = setInterval(() => {
        stallDelta(stalls.check(clock()));
        emit(model.advance(clock(), getPodsOkAt));
      }, options.tickMs ?? Math.min(1_000, Math.max(100, settings.relistPeriodMs)));
      try {
        const listing: CriListing = await listRuntime(r, start, { deadlineMs, signal, observer });
        const broken = listing.calls.some((c) => c.error?.includes('code = Unavailable') === true);
        if (listingOk(listing)) getPodsOkAt = start + listing.calls.reduce((ms, c) => ms + c.latencyMs, 0);
        const statuses = [];
        // Serially, in the model's order of need, as the kubelet inspects pods one after another.
        for (const uid of model.statusRequests(listing)) statuses.push(await fetchPodStatus(r, uid, { deadlineMs, signal, observer }));
        const delta = streamError === null ? model.relist(listing, statuses) : model.streamFailed(listing, statuses, streamError);
        if (delta.settings !== undefined) settings = { ...settings, ...delta.settings };
        emit(delta);
        return broken;
      } finally {
        clearInterval(tick);
      }
    }
  }

  async function kubeletLoop(scrape: (sampler: KubeletSampler, signal: AbortSignal) => Promise<KubeletSample>, permission: string): Promise<void> {
    const sampler = new KubeletSampler(Date.now() - clock());
    const interval = options.kubelet?.intervalMs ?? options.kube?.intervalMs ?? DEFAULT_METRICS_INTERVAL_MS;
    while (!signal.aborted) {
      const started = clock();
      try {
        const sample = await scrape(sampler, signal);
        const lacksChanged = setLack('metrics', sample.scrape === 'forbidden' ? `no kubelet metrics: ${sample.detail ?? 'forbidden'} (needs ${permission})` : undefined);
        emit({ durationMs: clock(), kubelet: [sample] }, lacksChanged);
        // The gate as the kubelet itself exports it (kubernetes_feature_enabled), over configz or a default.
        const exported = sample.scrape === 'ok' ? readOnDemandGate({ metricsGates: sampler.featureGates }) : undefined;
        const learnt = exported === undefined ? null : model.learnOnDemandGate(exported, clock());
        if (learnt !== null) {
          if (learnt.settings !== undefined) settings = { ...settings, ...learnt.settings };
          emit(learnt, true);
        }
      } catch (err) {
        if (signal.aborted) return;
        logger.warn(`timeline of ${options.node}: kubelet poll failed: ${errorText(err)}`);
      }
      await sleep(Math.max(0, interval - (clock() - started)), signal);
    }
  }
}

/** The minor version of the node's kubelet; undefined when unknown or unreadable (already warned above). */
function kubeletMinor(version: string | undefined): number | undefined {
  if (version === undefined) return undefined;
  try {
    return parseKubeletVersion(version).minor;
  } catch {
    return undefined;
  }
}
