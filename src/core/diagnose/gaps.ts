// What could not be collected, and how to get it. The nodes/proxy grant is named together with its
// warning (docs/kubelet-metrics.md, Permissions): it is not read-only, it also reaches exec, attach and port-forward on
// every pod of the node.

import type { Diagnosis } from './diagnosis';
import type { EvidenceSource, NodeEvidence } from './evidence';
import { ENDPOINT_PATHS, KUBELET_ENDPOINT_SOURCES, fetchedOf } from './sourceNotes';
import { seconds } from './textFormat';

export const NODES_PROXY_WARNING =
  'That grant is not read-only: the same permission reaches the kubelet’s exec, attach and port-forward ' +
  'endpoints, i.e. command execution in every pod on the node, bypassing admission control and audit ' +
  'logging of those commands. Grant it deliberately, to the people who need it.';

/** Where the reader turns a source on: VS Code settings, or the CLI's flags. */
export type AdviceSurface = 'vscode' | 'cli';

/**
 * How to get the node side next time, leaving out what is already in effect: with nodeSide "auto" (the
 * default) listing the cluster is all it takes; with "never" the cluster list alone would not do.
 */
function nodeSideAdvice(reason: string, surface: AdviceSurface): string {
  if (surface === 'cli') return 'Run `pleg-doctor diagnose` with `--ssh` (and `--host`, `--user`, `--identity` as needed) to read it.';
  if (/Diagnose All NotReady Nodes/u.test(reason)) return '';
  if (/nodeSide is "never"/u.test(reason)) return 'To enable it, set `plegDoctor.diagnostics.nodeSide` to "auto" (for the clusters listed in `plegDoctor.nodeAccess.clusters`) or "always".';
  if (/nodeSide is "auto"/u.test(reason)) return 'To enable it, list the cluster in `plegDoctor.nodeAccess.clusters`.';
  return 'To enable it, list the cluster in `plegDoctor.nodeAccess.clusters` (with `plegDoctor.diagnostics.nodeSide` "auto", the default, that is all it takes).';
}

/** How to get the kubelet endpoints read: the setting or the flag that turned the node proxy off. */
function nodeProxyAdvice(surface: AdviceSurface): string {
  return surface === 'cli' ? 'Reading them through the API server (without `--no-node-proxy`)' : 'Reading them through the API server (`plegDoctor.diagnostics.useNodeProxy`)';
}

export function collectGaps(evidence: NodeEvidence, verdict: Diagnosis['verdict'], surface: AdviceSurface = 'vscode'): string[] {
  const gaps: string[] = [];
  const forbidden: string[] = [];
  const grants = new Set<string>();
  for (const source of KUBELET_ENDPOINT_SOURCES) {
    const f = fetchedOf(evidence, source);
    if (f?.status !== 'forbidden') continue;
    forbidden.push(ENDPOINT_PATHS[source]);
    if (f.grant !== undefined) grants.add(f.grant);
  }
  // Read straight from the kubelet (the agent): the grant it names, and no node-proxy advice.
  if (forbidden.length > 0 && grants.size > 0 && !grants.has('nodes/proxy')) {
    gaps.push(`The kubelet endpoints ${forbidden.join(', ')} were refused (403): the service account needs \`get\` on ${[...grants].map((g) => `\`${g}\``).join(', ')}.`);
  } else if (forbidden.length > 0) {
    gaps.push(
      `The kubelet endpoints ${forbidden.join(', ')} were refused (403): reading them through the API server needs \`get\` on \`nodes/proxy\`. ${NODES_PROXY_WARNING} Without it, this report used the node's conditions, events and node info instead.`,
    );
  }
  const skippedEndpoints = KUBELET_ENDPOINT_SOURCES.map((source) => fetchedOf(evidence, source)).filter((f) => f?.status === 'skipped');
  const allSkipped = skippedEndpoints.length === KUBELET_ENDPOINT_SOURCES.length;
  if (allSkipped) {
    const reasons = [...new Set(skippedEndpoints.map((f) => (f?.status === 'skipped' ? String(f.reason) : '')))].join('; ');
    gaps.push(
      `The kubelet endpoints (/metrics, /configz, /healthz, goroutine dump) were not read: ${reasons}. ${nodeProxyAdvice(surface)} needs \`get\` on \`nodes/proxy\`. ${NODES_PROXY_WARNING} This report used the node's conditions, events and node info.`,
    );
  }
  const metricsOk = fetchedOf(evidence, 'metrics')?.status === 'ok';
  const sources: EvidenceSource[] = ['events', 'podCount', ...(allSkipped ? [] : KUBELET_ENDPOINT_SOURCES), 'nodeSide', 'kubeletLog'];
  for (const source of sources) {
    const f = fetchedOf(evidence, source);
    const what = ENDPOINT_PATHS[source];
    if (f === undefined) {
      gaps.push(`${what}: missing from the collected evidence.`);
      continue;
    }
    switch (f.status) {
      case 'ok':
        if (source === 'nodeSide') {
          const cut = snapshotCut(evidence);
          if (cut !== undefined) gaps.push(cut);
        }
        if (source === 'kubeletLog') {
          const cut = (f.value as { cut?: unknown } | null | undefined)?.cut;
          if (typeof cut === 'string') gaps.push(`The kubelet log stops before the collection time (${cut}): what it shows may be over; a shorter window reads to the end.`);
        }
        break;
      case 'forbidden':
        if (source === 'kubeletLog') gaps.push(`The kubelet log was refused (403): ${String(f.message)}. The NodeLogQuery goes through the node proxy: it needs \`get\` on \`nodes/proxy\`. ${NODES_PROXY_WARNING}`);
        else if (!KUBELET_ENDPOINT_SOURCES.includes(source)) gaps.push(`${what} refused (403): ${String(f.message)}. Reading them needs get/list on ${source === 'events' ? 'events' : 'pods'}.`);
        break;
      case 'timeout':
        gaps.push(
          source === 'nodeSide'
            ? `The node side did not finish within ${seconds(f.deadlineMs / 1000)}.`
            : source === 'kubeletLog'
              ? `The kubelet log did not come within ${seconds(f.deadlineMs / 1000)}: a shorter window (\`--log-window\`) reads less.`
            : `${what} did not answer within ${seconds(f.deadlineMs / 1000)}: the endpoint hung. That is evidence, not a tool failure (see the findings).`,
        );
        break;
      case 'unavailable':
        gaps.push(
          `${what}: ${f.httpStatus !== undefined ? `${f.httpStatus} ` : ''}${String(f.message)}${verdict === 'lease-lost' && KUBELET_ENDPOINT_SOURCES.includes(source) ? ' — expected while the kubelet is not posting status' : ''}.`,
        );
        break;
      case 'failed':
        gaps.push(`${what} failed: ${String(f.message)}.`);
        break;
      case 'skipped':
        if (source === 'nodeSide') {
          const advice = nodeSideAdvice(String(f.reason), surface);
          gaps.push(`The node side (SSH, CRI snapshot, probes) was skipped: ${String(f.reason)}.${advice !== '' ? ` ${advice}` : ''}`);
        } else if (source === 'kubeletLog') {
          gaps.push(
            `The kubelet log was not read: ${String(f.reason)}. The checks read it over SSH (\`journalctl -u kubelet\`, with the node side) or through the kubelet's NodeLogQuery (\`/logs/?query=kubelet\`; feature gate NodeLogQuery and \`enableSystemLogQuery: true\`), or from an evidence bundle's kubelet.log.`,
          );
        } else if (source === 'metricsLater') {
          if (!metricsOk) break;
          gaps.push(`Only one /metrics scrape (${String(f.reason)}): counters could not be read as rates, so "rising" errors are totals since the kubelet started.`);
        } else gaps.push(`${what} skipped: ${String(f.reason)}.`);
        break;
    }
  }
  return gaps;
}

/** The CRI snapshot ran out of its total budget: say what it did not read (those checks are partial). */
function snapshotCut(evidence: NodeEvidence): string | undefined {
  const side = evidence.nodeSide;
  const budget = side?.status === 'ok' ? side.value?.snapshot?.budget : undefined;
  if (budget?.exhausted !== true) return undefined;
  const notRead = (budget.notRead ?? []).map((n) => (n.ids.length > 0 ? `${n.method} for ${n.ids.length}` : n.method)).join(', ');
  return `The CRI snapshot stopped at its ${seconds(budget.ms / 1000)} budget and reports what it had read by then${notRead !== '' ? `; not read: ${notRead}` : ''}.`;
}
