// Every string the timeline panel shows, localized on the host: the webview receives them in `init`.
// The localizer is a parameter (the panel passes l10n's t), so the webview test can use these strings
// outside VS Code.

import type { Localize } from '../../core/tree/localize';
import type { MessageProblem, ParamProblem, WhatIfNumericKey } from '../../shared/timeline/panelProtocol';

function paramLabel(t: Localize, field: WhatIfNumericKey): string {
  switch (field) {
    case 'pods':
      return t('Pods');
    case 'containersPerPod':
      return t('Containers per pod');
    case 'rpcLatencyMs':
      return t('CRI call latency (ms)');
    case 'changedPodsPerRelist':
      return t('Changed pods per relist');
    case 'freezeAtS':
      return t('Freeze runtime at (s)');
    case 'freezeForS':
      return t('Freeze for (s, 0 = none)');
    case 'durationS':
      return t('Simulated time (s)');
  }
}

export function webviewStrings(t: Localize): Record<string, string> {
  return {
    title: t('PLEG What-if Timeline'),
    run: t('Simulate'),
    running: t('Simulating…'),
    cancel: t('Cancel'),
    cancelled: t('Simulation cancelled.'),
    notANumber: t('{0}: not a number'),
    outOfRange: t('{0} must be between {1} and {2}'),
    chartLabel: t('Time since the last successful relist started, against the PLEG health threshold, with every relist\'s duration'),
    'axis.health': t('since last relist start (s)'),
    'axis.duration': t('relist duration (s)'),
    'axis.time': t('time (s)'),
    'series.health': t('time since the last successful relist started'),
    'series.threshold': t('threshold: unhealthy above'),
    'series.duration': t('relist duration'),
    'series.failed': t('failed relist'),
    'series.unfinished': t('relist still running at the end'),
    'band.unhealthy': t('PLEG unhealthy'),
    'band.notReady': t('node NotReady'),
    approximate: t('Long run: fast relists without events were not recorded one by one; the health line between them is estimated.'),
    'param.pods': paramLabel(t, 'pods'),
    'param.containersPerPod': paramLabel(t, 'containersPerPod'),
    'param.rpcLatencyMs': paramLabel(t, 'rpcLatencyMs'),
    'param.changedPodsPerRelist': paramLabel(t, 'changedPodsPerRelist'),
    'param.freezeAtS': paramLabel(t, 'freezeAtS'),
    'param.freezeForS': paramLabel(t, 'freezeForS'),
    'param.durationS': paramLabel(t, 'durationS'),
    'param.kubelet': t('Kubelet'),
    ...sessionStrings(t),
  };
}

/** The session pane's strings (a node's live or replayed PLEG timeline). */
function sessionStrings(t: Localize): Record<string, string> {
  return {
    'tab.timeline': t('Timeline'),
    'tab.whatIf': t('What-if'),
    'session.waiting': t('Waiting for the timeline…'),
    'session.title': t('PLEG timeline of {0}'),
    'mode.live': t('Live'),
    'mode.replay': t('Replay, not live'),
    pause: t('Pause'),
    resume: t('Resume'),
    range: t('Time range'),
    'range.all': t('Whole session'),
    'range.5m': t('Last 5 minutes'),
    'range.15m': t('Last 15 minutes'),
    'range.1h': t('Last hour'),
    resetZoom: t('Reset zoom'),
    exportJson: t('Export JSON'),
    exportCsv: t('Export CSV'),
    exported: t('Saved to {0}'),
    exportCancelled: t('Export cancelled.'),
    'feed.running': t('Receiving'),
    'feed.paused': t('Paused: new samples are not drawn'),
    'feed.ended': t('Recording: complete'),
    'feed.failed': t('The feed stopped'),
    'session.chartLabel': t('Time since the last successful relist started against the threshold, the kubelet\'s last-seen age, and every relist\'s duration beside the kubelet\'s'),
    'session.lanesLabel': t('Lanes: PLEG health, predicted NotReady, the node\'s Ready condition, and each pod\'s events'),
    'axis.clock': t('time (UTC)'),
    'series.kubeletAge': t('kubelet: time since its PLEG last relisted (metrics)'),
    'series.kubeletDuration': t('kubelet: mean relist duration (metrics)'),
    'series.kubeletPodDuration': t('kubelet: mean per-pod relist duration (metrics, 1.36+)'),
    'marker.discards': t('events discarded (channel full)'),
    'marker.rpcErrors': t('CRI call errors'),
    'marker.kubeletErrors': t('kubelet: CRI errors (metrics: kubelet_runtime_operations_errors_total grew)'),
    'details.atKubeletErrors': t('kubelet CRI errors since the scrape before: {0}'),
    'lane.health': t('PLEG health (model)'),
    'lane.healthKubelet': t('PLEG health (kubelet)'),
    'lane.predicted': t('NotReady (predicted)'),
    'lane.ready': t('Node Ready (API server)'),
    'lane.otherPods': t('other pods'),
    'band.predicted': t('predicted NotReady: from the kubelet\'s first node status update after PLEG turns unhealthy'),
    'band.readyFalse': t('node Ready=False (reported)'),
    'band.readyUnknown': t('node Ready=Unknown (reported)'),
    'event.started': t('Started'),
    'event.died': t('Died'),
    'event.removed': t('Removed'),
    'event.changed': t('Changed'),
    'details.hint': t('Hover over the chart to read the values drawn at that time and the nearest relist: its CRI calls, their latencies and the pods it inspected.'),
    'details.at': t('At {0} UTC'),
    'details.atHealth': t('time since the last successful relist started: {0} s'),
    'details.atKubelet': t('kubelet: PLEG last relisted {0} s before (metrics)'),
    'details.relist': t('Relist ending at {0} UTC (started {1}): took {2}'),
    'details.failed': t('Failed: {0}'),
    'details.since': t('Time since the last successful relist started: {0} s'),
    'details.streamFailure': t('Forced by a failed GetContainerEvents stream, failure {0} (the kubelet returns to generic relisting at 1 s / 3 min after {1}): {2}'),
    'details.pods': t('{0} pods, {1} containers listed'),
    'details.events': t('{0} events, {1} discarded'),
    'details.inspected': t('Pods inspected ({0}): {1}'),
    'details.rpc': t('CRI call'),
    'details.pod': t('Pod'),
    'details.atMs': t('At (ms)'),
    'details.latencyMs': t('Latency (ms)'),
    'details.error': t('Error'),
    'details.moreRpcs': t('… and {0} more calls'),
  };
}

function describeParamProblem(t: Localize, problem: ParamProblem): string {
  switch (problem.kind) {
    case 'notAnObject':
      return t('The panel sent no simulation parameters.');
    case 'notANumber':
      return t('{0}: not a number', paramLabel(t, problem.field));
    case 'outOfRange':
      return t('{0} must be between {1} and {2}', paramLabel(t, problem.field), problem.min, problem.max);
    case 'badKubelet':
      return t('Kubelet must be 1.26 or 1.32, not {0}', problem.value);
    case 'unknownField':
      return t('Unknown simulation parameter {0}', problem.field);
  }
}

/** Why a message from the webview was refused, in the user's language. */
export function describeMessageProblem(t: Localize, problem: MessageProblem): string {
  switch (problem.kind) {
    case 'notAnObject':
      return t('The panel sent a message that is not an object.');
    case 'unknownType':
      return t('The panel sent a message of unknown type {0}.', problem.type);
    case 'badField':
      return t('The panel sent a message whose field {0} is not {1}.', problem.field, problem.expected);
    case 'unknownField':
      return t('The panel sent a message with an unknown field {0}.', problem.field);
    case 'protocolVersion':
      return t('The panel speaks protocol version {0}, the extension {1}: reopen the panel.', problem.got, problem.want);
    case 'params':
      return describeParamProblem(t, problem.problem);
  }
}
