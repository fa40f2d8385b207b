// Kubelets for the API stand-in's node proxy, answering with the real kubelet 1.32 recording
// (test/fixtures/real-kubelet-1.32): NotReady nodes serve what the kubelet served with its runtime frozen
// (metrics, goroutine dump, healthz, configz at the end of the 300 s freeze), Ready nodes the healthy phase.
// `hangMetricsOf` makes chosen nodes' /metrics stall as a real one does while its runtime is frozen.

import { readFileSync } from 'node:fs';
import type { NodeProxyAnswer, NodeProxyHandler } from '../../../src/demo/apiServer/server';

const fixtureDir = new URL('../../fixtures/real-kubelet-1.32/', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, fixtureDir), 'utf8');
const healthzBody = (phase: string): string => (read(`healthz-${phase}.txt`).split('# http_code')[0] ?? '').split('\n').filter((l) => !l.startsWith('#')).join('\n');

interface Phase {
  metrics: string;
  goroutines: string;
  healthz: string;
}

let cache: { frozen: Phase; healthy: Phase; configz: string } | undefined;
function recordings(): { frozen: Phase; healthy: Phase; configz: string } {
  cache ??= {
    frozen: { metrics: read('metrics-stopped-final.txt'), goroutines: read('goroutines-stopped-final.txt'), healthz: healthzBody('stopped-final') },
    healthy: { metrics: read('metrics-healthy.txt'), goroutines: read('goroutines-healthy.txt'), healthz: healthzBody('healthy') },
    configz: read('configz.json'),
  };
  return cache;
}

export function recordedKubelets(isNotReady: (node: string) => boolean, options: { hangMetricsOf?: (node: string) => boolean } = {}): NodeProxyHandler {
  const r = recordings();
  return (node, path): NodeProxyAnswer | undefined | Promise<NodeProxyAnswer | undefined> => {
    const phase = isNotReady(node) ? r.frozen : r.healthy;
    switch (path) {
      case '/metrics':
        if (options.hangMetricsOf?.(node) === true) return new Promise<undefined>(() => undefined);
        return { body: phase.metrics, contentType: 'text/plain; version=0.0.4' };
      case '/configz':
        return { body: r.configz, contentType: 'application/json' };
      case '/healthz':
        return { body: phase.healthz };
      case '/debug/pprof/goroutine':
        return { body: phase.goroutines };
      default:
        return undefined;
    }
  };
}
