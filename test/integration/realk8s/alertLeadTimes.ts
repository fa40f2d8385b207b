// Issue #28's alerts on the real cluster, in the shared fault window (./plegWindow.ts; no second freeze):
// before the freeze the agent of deploy/kubernetes runs on the node (./agentInstall.ts), Debian's
// Prometheus scrapes it and the real kubelet with the shipped rules and the kubernetes-mixin's
// (./prometheus.ts), and the real node-problem-detector runs the shipped monitor against the real agent
// (./npd.ts). From then on this records, with the time this test had each: every alert's state from
// Prometheus' /api/v1/alerts and every change of the Node's PLEGAtRisk condition (a watch). While the Node
// says PLEG: PLEGNotReadyPredicted and KubeletPLEGStalled firing and PLEGAtRisk=True each came at least
// 60 s before the kubelet's "PLEG is not healthy" post reached the API server (the window's `posts`), and
// the mixin's KubeletPlegDurationHigh was neither pending nor firing. After SIGCONT: all clear within
// ALL_CLEAR_S, and the mixin's alert at most pending: the hung relist ends at the thaw and its 3-minute
// duration enters the histogram, which over a 5-minute window with few other relists can put the p99 over
// 10 s (CI saw it pending 1 of 5 runs); its `for: 5m` keeps it from firing within the window.
// The lead times are printed and written to test-results/realk8s-<kit>-alert-lead-times.json.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { NodeWatch } from '../../../src/infra/kube/gateway';
import { AGENT_NAMESPACE, installAgent, removeAgent } from './agentInstall';
import { REPO, kubectl, until } from './cluster';
import { removePlegAtRisk, startNpd, type NodeCondition, type RunningNpd } from './npd';
import type { KitWindowChecks, PlegWindow } from './plegWindow';
import { SCRAPE_INTERVAL_S, startPrometheus, type RunningPrometheus } from './prometheus';

export const OURS = ['PLEGNotReadyPredicted', 'KubeletPLEGStalled'] as const;
export const MIXIN_ALERT = 'KubeletPlegDurationHigh';
/** What issue #28 asks of each signal: before the kubelet's PLEG post by at least this. */
export const MIN_LEAD_S = 60;
/**
 * All clear after SIGCONT within this: the slowest path is the kubelet's target, whose scrape in flight at
 * the thaw may still time out (10 s), then the next scrape (≤ 15 s) and the next evaluation of the 15 s
 * group (≤ 15 s), and this test's 1 s poll: 41 s. NPD: the agent's relist completes at once, then the
 * plugin's next run (invoke_interval 10 s) and NPD's post. 60 s leaves room for a busy 2-core machine.
 */
export const ALL_CLEAR_S = 60;
const POLL_MS = 1_000;

interface AlertSample {
  atMs: number;
  alertname: string;
  /** 'inactive' when the alert is no longer in Prometheus' list. */
  state: string;
  activeAt?: string;
}

interface ConditionSample extends NodeCondition {
  atMs: number;
}

export interface LeadTimes {
  kit: string;
  scrapeIntervalS: number;
  frozeAt: string;
  plegPostAt: string;
  /** Seconds before the PLEG post that this test first had each signal. */
  leadS: Record<string, number>;
  /** When each signal came, seconds after the freeze. */
  afterFreezeS: Record<string, number>;
  mixin: string;
  /** Seconds from SIGCONT to each signal's all clear (set after recovery). */
  clearAfterThawS?: Record<string, number>;
  /** What the mixin's alert did after SIGCONT (set after recovery). */
  mixinAfterThaw?: string;
}

function secondsBetween(a: number, b: number): number {
  return Math.round((b - a) / 100) / 10;
}

export function alertLeadTimeChecks(dir: string): {
  checks: KitWindowChecks;
  cleanup: () => Promise<void>;
  /** Every change of the Node's PLEGAtRisk condition so far, as this test's watch saw it (from beforeFreeze on). */
  atRisk: () => readonly ConditionSample[];
} {
  let prometheus: RunningPrometheus | undefined;
  let npd: RunningNpd | undefined;
  let watch: NodeWatch | undefined;
  let polling = false;
  let poller: Promise<void> = Promise.resolve();
  let thawAt = 0;
  let leadTimes: LeadTimes | undefined;
  let windowOf: PlegWindow | undefined;
  const alerts: AlertSample[] = [];
  const conditions: ConditionSample[] = [];
  const pollErrors: string[] = [];

  const lastState = (name: string): string => alerts.filter((a) => a.alertname === name).at(-1)?.state ?? 'inactive';

  async function poll(p: RunningPrometheus): Promise<void> {
    while (polling) {
      try {
        const now = await p.alerts();
        const atMs = Date.now();
        const names = new Set([...alerts.map((a) => a.alertname), ...now.map((a) => a.alertname)]);
        for (const name of names) {
          const current = now.find((a) => a.alertname === name);
          const state = current?.state ?? 'inactive';
          if (state !== lastState(name)) alerts.push({ atMs, alertname: name, state, ...(current ? { activeAt: current.activeAt } : {}) });
        }
      } catch (e) {
        // Prometheus is not frozen: an API error here is a fault of the setup, reported at the end.
        pollErrors.push(`${new Date().toISOString()} ${String(e)}`);
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  function watchCondition(w: PlegWindow): void {
    watch = w.gateway.watchNodes(w.context, { node: w.cluster.nodeName });
    watch.onDidChangeNodes(() => {
      const c = watch?.nodes.get(w.cluster.nodeName)?.status?.conditions?.find((k) => k.type === 'PLEGAtRisk');
      if (c === undefined) return;
      const last = conditions.at(-1);
      const sample = { status: c.status ?? '', reason: c.reason ?? '', message: c.message ?? '' };
      if (last === undefined || last.status !== sample.status || last.reason !== sample.reason || last.message !== sample.message) conditions.push({ atMs: Date.now(), ...sample });
    });
  }

  const firstAfter = (since: number, ok: (s: AlertSample) => boolean): AlertSample | undefined => alerts.find((a) => a.atMs > since && ok(a));

  const checks: KitWindowChecks = {
    beforeFreeze: async (w) => {
      windowOf = w;
      const { cluster } = w;
      await installAgent(cluster, dir);
      const token = kubectl(cluster, ['create', 'token', 'pleg-doctor-agent', '-n', AGENT_NAMESPACE, '--duration', '1h']).trim();
      prometheus = await startPrometheus(join(dir, 'prometheus'), { agent: '127.0.0.1:9787', kubelet: '127.0.0.1:10250', kubeletToken: token });
      npd = startNpd(cluster, dir);
      watchCondition(w);
      polling = true;
      poller = poll(prometheus);
      const p = prometheus;
      const ready = async (): Promise<true | undefined> => {
        const targets = await p.targets();
        const healthy = ['pleg-doctor-agent', 'kubelet'].every((job) => targets.some((t) => t.job === job && t.health === 'up'));
        // The mixin's recording rule has a value: its later silence is not a selector that matches nothing.
        const mixin = await p.query('node_quantile:kubelet_pleg_relist_duration_seconds:histogram_quantile{quantile="0.99"}');
        return healthy && mixin.length > 0 && conditions.at(-1)?.status === 'False' ? true : undefined;
      };
      await until('Prometheus scraping the agent and the kubelet, the mixin recording, PLEGAtRisk=False', ready, 150_000, 1_000).catch(async (e: unknown) => {
        throw new Error(`${String(e)}\ntargets: ${JSON.stringify(await p.targets().catch(String))}\nPLEGAtRisk: ${JSON.stringify(conditions)}\nNPD log:\n${npd?.log().slice(-2000) ?? ''}\nPrometheus log:\n${p.log().slice(-2000)}`);
      });
      expect(conditions.at(-1)).toEqual({ atMs: expect.any(Number), status: 'False', reason: 'NoNotReadyPredicted', message: 'pleg-doctor predicts no PLEG NotReady' });
      for (const name of [...OURS, MIXIN_ALERT]) expect(lastState(name), JSON.stringify(alerts)).toBe('inactive');
    },

    whilePleg: (w, { frozeAt }) => {
      const pleg = w.posts.find((p) => p.atMs > frozeAt && p.message.includes('PLEG is not healthy'));
      if (pleg === undefined) throw new Error(`no PLEG post in the window's posts: ${JSON.stringify(w.posts)}`);
      const signals: Record<string, number | undefined> = {};
      for (const name of OURS) signals[name] = firstAfter(frozeAt, (a) => a.alertname === name && a.state === 'firing')?.atMs;
      const atRisk = conditions.find((c) => c.atMs > frozeAt && c.status === 'True');
      signals['PLEGAtRisk=True'] = atRisk?.atMs;
      const mixin = alerts.filter((a) => a.alertname === MIXIN_ALERT);
      leadTimes = {
        kit: w.cluster.kit,
        scrapeIntervalS: SCRAPE_INTERVAL_S,
        frozeAt: new Date(frozeAt).toISOString(),
        plegPostAt: new Date(pleg.atMs).toISOString(),
        leadS: {},
        afterFreezeS: {},
        mixin: mixin.length === 0 ? 'neither pending nor firing before the post' : JSON.stringify(mixin),
      };
      const lines: string[] = [];
      for (const [name, atMs] of Object.entries(signals)) {
        if (atMs === undefined) {
          lines.push(`${name}: did not come before the PLEG post`);
          continue;
        }
        leadTimes.leadS[name] = secondsBetween(atMs, pleg.atMs);
        leadTimes.afterFreezeS[name] = secondsBetween(frozeAt, atMs);
        lines.push(`${name}: ${leadTimes.leadS[name]} s before the kubelet's PLEG post (T+${leadTimes.afterFreezeS[name]} s after the freeze)`);
      }
      lines.push(`${MIXIN_ALERT} (kubernetes-mixin): ${leadTimes.mixin}`);
      console.log(`alert lead times on the real kubelet ${w.cluster.kit} (scrape ${SCRAPE_INTERVAL_S} s, evaluation 15 s; PLEG post at T+${secondsBetween(frozeAt, pleg.atMs)} s):\n  ${lines.join('\n  ')}`);
      writeLeadTimes(leadTimes);

      for (const name of Object.keys(signals)) expect(leadTimes.leadS[name], `${name}: ${lines.join('; ')}\nalerts: ${JSON.stringify(alerts)}\nPLEGAtRisk: ${JSON.stringify(conditions)}`).toBeGreaterThanOrEqual(MIN_LEAD_S);
      expect(mixin, `${MIXIN_ALERT} must stay silent`).toEqual([]);
      expect(atRisk?.reason).toBe('NotReadyPredicted');
      expect(atRisk?.message).toMatch(/^NotReady (predicted in (\d+m)?\d+s|due now)/);
      // The monitor's temporary rule: a Warning Event from source pleg-doctor.
      const events = kubectl(w.cluster, ['get', 'events', '-n', 'default', '--field-selector', `involvedObject.name=${w.cluster.nodeName},reason=PLEGNotReadyPredicted`, '-o', 'jsonpath={range .items[*]}{.source.component}|{.type}|{.message}{"\\n"}{end}']);
      expect(events).toMatch(/^pleg-doctor\|Warning\|NotReady (predicted in|due now)/m);
      expect(pollErrors).toEqual([]);
      // The window thaws as soon as this returns.
      thawAt = Date.now();
    },

    afterRecovery: async (w) => {
      const clear = (): true | undefined => (OURS.every((n) => lastState(n) === 'inactive') && conditions.at(-1)?.status === 'False' ? true : undefined);
      await until('both alerts resolved and PLEGAtRisk=False', clear, 120_000, 500).catch((e: unknown) => {
        throw new Error(`${String(e)}\nalerts: ${JSON.stringify(alerts)}\nPLEGAtRisk: ${JSON.stringify(conditions)}`);
      });
      const clearAt: Record<string, number> = {};
      for (const name of OURS) clearAt[name] = firstAfter(thawAt, (a) => a.alertname === name && a.state === 'inactive')?.atMs ?? NaN;
      clearAt['PLEGAtRisk=False'] = conditions.find((c) => c.atMs > thawAt && c.status === 'False')?.atMs ?? NaN;
      const clearAfterThawS = Object.fromEntries(Object.entries(clearAt).map(([k, v]) => [k, secondsBetween(thawAt, v)]));
      console.log(`all clear after SIGCONT on the real kubelet ${w.cluster.kit}: ${Object.entries(clearAfterThawS).map(([k, v]) => `${k} ${v} s`).join(', ')}`);
      const mixin = alerts.filter((a) => a.alertname === MIXIN_ALERT);
      const pending = mixin.find((a) => a.state === 'pending');
      const mixinAfterThaw = pending === undefined ? 'silent' : `pending ${secondsBetween(thawAt, pending.atMs)} s after SIGCONT (the hung relist's duration observed at last)`;
      console.log(`${MIXIN_ALERT} after SIGCONT: ${mixinAfterThaw}`);
      if (leadTimes !== undefined) writeLeadTimes({ ...leadTimes, clearAfterThawS, mixinAfterThaw });
      for (const [name, s] of Object.entries(clearAfterThawS)) expect(s, name).toBeLessThanOrEqual(ALL_CLEAR_S);
      // Never firing, and pending only after the thaw (before it, whilePleg held it silent).
      expect(mixin.filter((a) => a.state === 'firing' || a.atMs <= thawAt)).toEqual([]);
      expect(pollErrors).toEqual([]);
      await cleanup(w);
    },
  };

  let cleaned = false;
  async function cleanup(w?: PlegWindow): Promise<void> {
    polling = false;
    await poller;
    watch?.dispose();
    await npd?.stop();
    await prometheus?.stop();
    if (cleaned || w === undefined) return;
    cleaned = true;
    removeAgent(w.cluster);
    removePlegAtRisk(w.cluster);
  }

  return { checks, cleanup: () => cleanup(windowOf), atRisk: () => conditions };
}

function writeLeadTimes(t: LeadTimes): void {
  // Beside the window's timeline recording (CI keeps test-results/).
  mkdirSync(join(REPO, 'test-results'), { recursive: true });
  writeFileSync(join(REPO, 'test-results', `realk8s-${t.kit}-alert-lead-times.json`), `${JSON.stringify(t, null, 2)}\n`);
}

