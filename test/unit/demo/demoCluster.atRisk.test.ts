// The demo's node at risk (prod-eu-node-09): Ready all along, one slow relist per cycle that returns just
// under the threshold, and node-problem-detector's PLEGAtRisk written as NPD writes it while that relist
// hangs. Its kubelet's /metrics agree: kubelet_pleg_last_seen_seconds stops at the slow relist's start, so
// the threshold is crossed one status tick or less before the NotReady NPD's message predicts.

import { describe, expect, it } from 'vitest';
import { classifyNode } from '../../../src/core/classify/classifyNode';
import { parsePrediction } from '../../../src/core/npd/npdPrediction';
import { DEFAULT_WITHIN_SECONDS } from '../../../src/core/npd/npdVerdict';
import { summarizeKubeletMetrics } from '../../../src/core/parse/kubeletMetrics';
import { AT_RISK, DEMO_CONTEXTS, NPD_HEARTBEAT_S, PLEG_THRESHOLD_S, STATUS_TICK_S, demoNodeAt, nodeMomentAt } from '../../../src/demo/demoCluster';
import { demoKubeletProxy } from '../../../src/demo/kubeletEndpoints';

const ORIGIN = Date.parse('2026-11-22T03:00:00Z');
const at = (s: number): number => ORIGIN + s * 1000;
const node = DEMO_CONTEXTS.flatMap((c) => c.nodes).find((n) => n.role === 'pleg-at-risk')!;

describe('the demo node at risk', () => {
  it('is prod-eu-node-09, the only one, Ready at every tick of two cycles', () => {
    expect(DEMO_CONTEXTS.flatMap((c) => c.nodes).filter((n) => n.role === 'pleg-at-risk').map((n) => n.name)).toEqual(['prod-eu-node-09']);
    for (let s = -600; s <= 600; s += 5) expect(nodeMomentAt(node, ORIGIN, at(s)).ready.status).toBe('True');
  });

  it('is at risk where the e2e freezes the demo (40 s in), NotReady predicted within the plugin\'s 2 min', () => {
    const c = classifyNode(demoNodeAt(node, ORIGIN, at(40)), new Date(at(40)));
    expect(c.verdict).toBe('pleg-at-risk');
    expect(c.warnings).toEqual([]);
    expect(c.summary).toMatch(/^PLEG at risk · NotReady in ~(1m\d+s|\d+s)$/u);
    // Not before the plugin's bound: at the slow relist's start + 40 s the NotReady is still ~2m20s away.
    expect(nodeMomentAt(node, ORIGIN, at(-10)).atRisk?.status).toBe('False');
  });

  it('PLEGAtRisk is True for most of each slow relist and False between, flips at plugin runs, synced every 5 min', () => {
    const cycle = AT_RISK.healthyS + AT_RISK.slowS;
    let trueS = 0;
    let flips = 0;
    let previous: string | undefined;
    for (let s = 0; s < 2 * cycle; s++) {
      const risk = nodeMomentAt(node, ORIGIN, at(s)).atRisk!;
      if (risk.status === 'True') trueS++;
      if (previous !== undefined && previous !== risk.status) {
        flips++;
        // NPD writes the status with its Transition at the plugin run that saw it change.
        expect(risk.transitionMs).toBeLessThanOrEqual(at(s));
        expect(risk.transitionMs).toBeGreaterThan(at(s - AT_RISK.invokeS));
      }
      previous = risk.status;
      expect(risk.heartbeatMs).toBeGreaterThanOrEqual(risk.transitionMs);
      expect(at(s) - risk.heartbeatMs).toBeLessThan(NPD_HEARTBEAT_S * 1000);
    }
    expect(flips).toBe(4);
    // True from the first plugin run that sees the NotReady (threshold crossing + up to one status tick)
    // within the plugin's bound, to the first run after the relist returns.
    const firstReported = PLEG_THRESHOLD_S - DEFAULT_WITHIN_SECONDS;
    expect(trueS).toBeGreaterThan(2 * (AT_RISK.slowS - firstReported - STATUS_TICK_S - 2 * AT_RISK.invokeS));
    expect(trueS).toBeLessThanOrEqual(2 * (AT_RISK.slowS - firstReported + AT_RISK.invokeS));
  });

  it('the kubelet\'s metrics agree with the prediction: last seen active + 3 min lands within a status tick before it', async () => {
    for (const s of [40, 100, 40 + AT_RISK.healthyS + AT_RISK.slowS]) {
      const obj = demoNodeAt(node, ORIGIN, at(s));
      const risk = obj.status!.conditions!.find((c) => c.type === 'PLEGAtRisk')!;
      expect(risk).toMatchObject({ status: 'True', reason: 'NotReadyPredicted' });
      expect(Object.keys(risk).sort()).toEqual(['lastHeartbeatTime', 'lastTransitionTime', 'message', 'reason', 'status', 'type']);
      const notReadyMs = Date.parse(String(risk.lastTransitionTime)) + parsePrediction(risk.message!)! * 1000;
      const answer = await demoKubeletProxy((n) => (n === node.name ? obj : undefined), () => new Date(at(s)))(node.name, '/metrics', new URLSearchParams());
      const lastSeen = summarizeKubeletMetrics(answer!.body).plegLastSeenSeconds!;
      const crossingMs = (lastSeen + PLEG_THRESHOLD_S) * 1000;
      expect(crossingMs).toBeLessThan(notReadyMs);
      expect(crossingMs).toBeGreaterThan(notReadyMs - STATUS_TICK_S * 1000);
    }
  });
});
