// `pleg-doctor agent` on one node: the live feed of the PLEG Timeline (runLiveFeed, the one implementation
// of the live model) on the runtime's local socket through the agent's one-call lane, the kubelet's
// /metrics from its own port and its configuration from its config file, the Node through the in-cluster
// API when there is one; a diagnosis of the node side on a slower period (never two at once); and the HTTP
// port that serves all of it. Runs until the signal aborts, then closes the server and aborts every call.

import { performance } from 'node:perf_hooks';
import { AgentMeter, type BuildInfo } from '../../core/agent/agentMeter';
import { renderExposition } from '../../core/agent/exposition';
import { SessionLog } from '../../core/agent/sessionLog';
import type { Fetched, NodeEvidence, NodeSideEvidence } from '../../core/diagnose/evidence';
import { diagnose } from '../../core/diagnose/runDiagnosis';
import { checkVerdict, diagnosisJson } from '../../core/diagnose/verdicts';
import type { KubeNode } from '../../core/kube/objects';
import type { KubeletConfigz } from '../../core/parse/kubeletEndpointTypes';
import { newTimelineSession } from '../../core/timeline/newSession';
import type { SessionSettings } from '../../core/timeline/session';
import { timeoutSignal } from '../../core/util/deadlineSignal';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import { KUBELET_ENDPOINTS } from '../diagnose/collectEvidence';
import { nodeSideEvidence } from '../diagnose/nodeSideEvidence';
import type { KubeGateway } from '../kube/gateway';
import { localNodeSnapshot } from '../nodeSnapshot/localSnapshot';
import { sleepUnlessAborted } from '../sleepUnlessAborted';
import { runLiveFeed } from '../timeline/liveFeed';
import { CallGate, laneClient } from './criLane';
import { ProtoCodec } from '../cri/protoCodec';
import type { CriReader } from '../cri/reader';
import { startAgentServer, type AgentServer } from './agentServer';
import { fetchKubeletDirect, type KubeletDirectTarget } from './kubeletDirect';
import { readKubeletConfigFile } from './kubeletConfigFile';

export interface AgentOptions {
  node: string;
  criSocket: string;
  kubelet: KubeletDirectTarget;
  kubeletConfigFile: string;
  periodMs: number;
  /** The in-cluster API (the Node's Ready lane and version); absent: `noApiReason`. */
  api?: { gateway: KubeGateway; context: string };
  noApiReason?: string;
  listen: { host: string; port: number };
  /** Between two diagnoses (each waits for the previous one). */
  diagnosisPeriodMs: number;
  /** How much of the session /v1/session keeps. */
  retainMs: number;
  /** Between two scrapes of the kubelet's /metrics. */
  kubeletScrapeMs: number;
  version: string;
  logger: Logger;
  signal: AbortSignal;
  /** Told the bound address once the port is open. */
  onListening?: (server: AgentServer) => void;
}

/** The kubelet's defaults until its config file says otherwise (v1beta1 SetDefaults_KubeletConfiguration, pkg/kubelet/pleg/generic.go). */
const DEFAULT_SETTINGS: Omit<SessionSettings, 'relistPeriodMs'> = { thresholdMs: 180_000, runtimeRequestTimeoutMs: 120_000, profile: '1.32+', evented: false };
const METRICS_TEXT = { path: '/metrics', parse: (body: string) => body };
/** Per-call deadline of the diagnosis snapshot; it waits in the lane behind a hung relist and fails there, unsent. */
const DIAGNOSIS_CALL_DEADLINE_MS = 10_000;
const KUBELET_DEADLINE_MS = 10_000;

export async function runAgent(options: AgentOptions): Promise<void> {
  const { logger, signal } = options;
  const t0 = performance.now();
  const clock = (): number => Math.round((performance.now() - t0) * 100) / 100;
  const meter = new AgentMeter();
  const gate = new CallGate({ ended: (method, ms) => meter.callEnded(method, ms / 1000) });
  const codec = ProtoCodec.create();
  const settings: SessionSettings = { relistPeriodMs: options.periodMs, ...DEFAULT_SETTINGS };
  const log = new SessionLog(newTimelineSession({ node: options.node, source: 'live', startedAt: new Date(Date.now() - clock()), settings }), options.retainMs);
  const build: BuildInfo = { version: options.version, kubeletVersion: '', runtime: '' };
  let lastDeltaAtMs = 0;
  let findings: string[] | undefined;
  let lastDiagnosis: unknown;
  let loopFailure: string | undefined;

  const server = await startAgentServer(
    {
      metrics: () => {
        const since = gate.inflightSince;
        return renderExposition(
          meter.families({
            nowMs: clock(),
            session: log.session,
            inflightSinceMs: since === undefined ? undefined : since - t0,
            inflightCalls: gate.inflightCalls,
            findings,
            build: { ...build, kubeletVersion: log.session.kubeletVersion ?? '' },
          }),
        );
      },
      session: () => ({ cursor: log.cursor, session: log.session }),
      since: (cursor) => log.since(cursor),
      diagnosis: () => lastDiagnosis,
      unhealthy: () => {
        if (loopFailure !== undefined) return loopFailure;
        // The feed emits at least every tick (≤ 1 s) even while a call hangs: silence means its loop died.
        const quietMs = clock() - lastDeltaAtMs;
        const limitMs = Math.max(10_000, 5 * options.periodMs);
        return quietMs > limitMs ? `the live feed has emitted nothing for ${Math.round(quietMs / 1000)} s` : undefined;
      },
    },
    options.listen,
  );
  options.onListening?.(server);
  logger.info(`agent for node ${options.node}: serving /metrics, /healthz, /v1/session, /v1/diagnosis on ${server.address.address}:${server.address.port}`);

  const readConfig = (): Promise<Fetched<KubeletConfigz>> => readKubeletConfigFile(options.kubeletConfigFile);
  const feed = runLiveFeed({
    node: options.node,
    settings,
    connectCri: async (s) => {
      const client = laneClient(options.criSocket, gate, 'relist', { logger, codec });
      try {
        const version = await client.version({ deadlineMs: 5_000, signal: s });
        build.runtime = `${version.runtimeName} ${version.runtimeVersion}`;
        return client;
      } catch (err) {
        client.close();
        throw err;
      }
    },
    ...(options.api !== undefined ? { kube: { gateway: options.api.gateway, context: options.api.context, timeoutMs: KUBELET_DEADLINE_MS } } : {}),
    kubelet: {
      metrics: (timeoutMs, s) => fetchKubeletDirect(options.kubelet, METRICS_TEXT, timeoutMs, s),
      config: readConfig,
      metricsPermission: 'get on nodes/metrics',
      configSource: options.kubeletConfigFile,
      intervalMs: options.kubeletScrapeMs,
    },
    signal,
    clock,
    logger,
    onDelta: (delta) => {
      lastDeltaAtMs = clock();
      log.apply(delta);
      meter.take(delta);
    },
  }).catch((err: unknown) => {
    loopFailure = `the live feed stopped: ${errorText(err)}`;
    logger.error(loopFailure);
  });

  const diagnoses = (async () => {
    while (!signal.aborted) {
      try {
        const evidence = await collectAgentEvidence(options, (s) => laneClient(options.criSocket, gate, 'diagnosis', { logger, codec, defaultDeadlineMs: s }), readConfig);
        const diagnosis = diagnose(evidence, { advice: 'cli' });
        findings = diagnosis.checks.filter((c) => checkVerdict(c) === 'fail').map((c) => c.checkId);
        lastDiagnosis = { collectedAt: evidence.collectedAt, diagnosis: diagnosisJson(diagnosis), nodeSide: evidence.nodeSide };
      } catch (err) {
        if (signal.aborted) break;
        logger.warn(`agent: diagnosis failed: ${errorText(err)}`);
      }
      await sleepUnlessAborted(options.diagnosisPeriodMs, signal);
    }
  })();

  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  await server.close();
  await Promise.all([feed, diagnoses]);
}

/**
 * What the node can tell about itself, in the shape `pleg-doctor diagnose` judges: the Node (when the API
 * is there), one /metrics scrape of the local kubelet, its config file in place of /configz, and the CRI
 * snapshot over the lane (as `diagnose --cri-socket` takes it). No events, pod list, /healthz, goroutine
 * dump or journal: the agent's role does not reach them (nodes/proxy, events) and it runs no shell.
 */
async function collectAgentEvidence(options: AgentOptions, openLane: (deadlineMs: number) => CriReader, readConfig: () => Promise<Fetched<KubeletConfigz>>): Promise<NodeEvidence> {
  const { signal, logger } = options;
  const collectedAt = new Date().toISOString();
  const skipped = (reason: string) => ({ status: 'skipped', reason }) as const;
  let node: KubeNode = { metadata: { name: options.node } };
  if (options.api !== undefined) {
    try {
      node = await options.api.gateway.getNode(options.api.context, options.node, AbortSignal.any([signal, timeoutSignal(KUBELET_DEADLINE_MS)]));
    } catch (err) {
      if (signal.aborted) throw err;
      logger.warn(`agent: cannot read node ${options.node}: ${errorText(err)}`);
    }
  }
  const started = performance.now();
  const [metrics, configz, nodeSide] = await Promise.all([
    fetchKubeletDirect(options.kubelet, KUBELET_ENDPOINTS.metrics, KUBELET_DEADLINE_MS, signal),
    readConfig(),
    localNodeSnapshot(options.criSocket, {
      deadlineMs: DIAGNOSIS_CALL_DEADLINE_MS,
      logger,
      signal,
      open: () => openLane(DIAGNOSIS_CALL_DEADLINE_MS),
      reason: 'the runtime socket on this node (the agent, one call at a time)',
    }).then(
      (report): Fetched<NodeSideEvidence> => ({ status: 'ok', value: nodeSideEvidence(report), ms: Math.round(performance.now() - started) }),
      (err: unknown): Fetched<NodeSideEvidence> => {
        if (signal.aborted) throw err;
        return { status: 'failed', message: errorText(err), ms: Math.round(performance.now() - started) };
      },
    ),
  ]);
  const notReached = 'the agent\u2019s role grants nodes and nodes/metrics only';
  return {
    context: options.api?.context ?? 'node',
    nodeName: options.node,
    collectedAt,
    node,
    events: skipped(`not read: ${notReached}`),
    podCount: skipped(`not read: ${notReached}`),
    metrics,
    metricsLater: skipped('the agent scrapes /metrics once per diagnosis'),
    metricsIntervalMs: 0,
    configz,
    healthz: skipped(`not read: /healthz on the kubelet's port is nodes/proxy (${notReached})`),
    goroutines: skipped(`not read: /debug/pprof is nodes/proxy (${notReached})`),
    nodeSide,
    kubeletLog: skipped('the agent runs no shell on the node'),
  };
}
