// What deploy/ promises, held where it can drift: the PrometheusRule carries exactly the rule file's
// groups; the RBAC is the least the agent needs (never nodes/proxy); the DaemonSet keeps the properties
// the README states; the NPD monitor runs a command that exists, with deadlines that nest. Applying the
// manifests to a real API server: test/integration/realk8s/deploy.test.ts.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAll, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../../src/cli/registry';
import { NPD_MAX_OUTPUT_LENGTH } from '../../../../src/core/npd/npdVerdict';
import { parseGoDurationSeconds } from '../../../../src/core/util/goDuration';

const DEPLOY = resolve(__dirname, '../../../../deploy');
const read = (path: string): string => readFileSync(resolve(DEPLOY, path), 'utf8');
const yaml = <T>(path: string): T => load(read(path)) as T;

interface Container {
  args: string[];
  env: { name: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  ports: { name: string; containerPort: number }[];
  securityContext: Record<string, unknown>;
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
  resources: { requests: Record<string, string>; limits: Record<string, string> };
}
interface DaemonSet {
  spec: {
    template: {
      spec: {
        hostNetwork: boolean;
        priorityClassName: string;
        serviceAccountName: string;
        tolerations: { key?: string; operator: string; effect?: string }[];
        securityContext: Record<string, unknown>;
        containers: Container[];
        volumes: { name: string; hostPath: { path: string; type: string } }[];
      };
    };
  };
}

describe('deploy/', () => {
  it('the PrometheusRule carries exactly the groups of deploy/prometheus/pleg-doctor.rules.yaml', () => {
    const rule = yaml<{ kind: string; spec: unknown }>('prometheus-operator/prometheusrule.yaml');
    expect(rule.kind).toBe('PrometheusRule');
    expect(rule.spec).toEqual(yaml('prometheus/pleg-doctor.rules.yaml'));
    const kustomization = yaml<{ resources: string[] }>('prometheus-operator/kustomization.yaml');
    expect(kustomization.resources).toEqual(['../kubernetes', 'servicemonitor.yaml', 'prometheusrule.yaml']);
  });

  it('the ClusterRole: get nodes/metrics and read nodes, nothing else (never nodes/proxy)', () => {
    const role = yaml<{ rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[] }>('kubernetes/clusterrole.yaml');
    const grants = role.rules.flatMap((r) => r.resources.flatMap((res) => r.verbs.map((v) => `${r.apiGroups.join(',')}/${res}:${v}`))).sort();
    expect(grants).toEqual(['/nodes/metrics:get', '/nodes:get', '/nodes:list', '/nodes:watch']);
  });

  it('the DaemonSet: host network, stays on NotReady/unreachable nodes, node-critical, read-only, not root, the contract port and env', () => {
    const spec = yaml<DaemonSet>('kubernetes/daemonset.yaml').spec.template.spec;
    expect(spec.hostNetwork).toBe(true);
    expect(spec.priorityClassName).toBe('system-node-critical');
    expect(spec.serviceAccountName).toBe('pleg-doctor-agent');
    for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
      expect(spec.tolerations).toContainEqual({ key, operator: 'Exists' });
    }
    expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 });
    const [agent] = spec.containers;
    expect(agent?.args.slice(0, 1)).toEqual(['agent']);
    expect(agent?.ports).toEqual([{ name: 'metrics', containerPort: 9787 }]);
    expect(agent?.env).toContainEqual({ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });
    expect(agent?.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(agent?.resources.requests).toHaveProperty('memory');
    expect(agent?.resources.limits).toHaveProperty('memory');
    expect(agent?.volumeMounts.every((m) => m.readOnly === true)).toBe(true);
    expect(spec.volumes.map((v) => v.hostPath.path).sort()).toEqual(['/run/containerd/containerd.sock', '/var/lib/kubelet/config.yaml']);
  });

  it('every file of the base is listed in its kustomization, and the image the tests build is the one it runs', () => {
    const k = yaml<{ resources: string[]; namespace: string }>('kubernetes/kustomization.yaml');
    expect(k.namespace).toBe('pleg-doctor');
    const docs = k.resources.flatMap((f) => loadAll(read(`kubernetes/${f}`)) as { kind: string }[]);
    expect(docs.map((d) => d.kind).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'DaemonSet', 'Namespace', 'Service', 'ServiceAccount']);
    expect(read('kubernetes/daemonset.yaml')).toContain('image: localhost/pleg-doctor-agent:dev');
    expect(read('image/build-offline.sh')).toContain('TAG="localhost/pleg-doctor-agent:dev"');
  });
});

describe('deploy/node-problem-detector/pleg-doctor-monitor.json', () => {
  interface Rule {
    type: string;
    condition?: string;
    reason: string;
    path: string;
    args: string[];
    timeout: string;
  }
  const monitor = JSON.parse(read('node-problem-detector/pleg-doctor-monitor.json')) as {
    plugin: string;
    pluginConfig: { invoke_interval: string; timeout: string; max_output_length: number };
    conditions: { type: string }[];
    rules: Rule[];
  };

  it('sets PLEGAtRisk by one permanent rule (several flap on NPD ≤ v0.8.15) and emits an event by a temporary one', () => {
    expect(monitor.plugin).toBe('custom');
    expect(monitor.conditions.map((c) => c.type)).toEqual(['PLEGAtRisk']);
    expect(monitor.rules.map((r) => [r.type, r.condition])).toEqual([
      ['permanent', 'PLEGAtRisk'],
      ['temporary', undefined],
    ]);
  });

  it('runs `pleg-doctor npd-plugin` against the DaemonSet\'s port, its deadline inside NPD\'s, its output within NPD\'s length', () => {
    expect(monitor.pluginConfig.max_output_length).toBe(NPD_MAX_OUTPUT_LENGTH);
    const global = parseGoDurationSeconds(monitor.pluginConfig.timeout);
    expect(global).toBeLessThan(parseGoDurationSeconds(monitor.pluginConfig.invoke_interval));
    for (const rule of monitor.rules) {
      expect(rule.args[0]).toBe('npd-plugin');
      expect(Object.keys(COMMANDS)).toContain(rule.args[0]);
      const own = parseGoDurationSeconds(rule.timeout);
      expect(own).toBeLessThanOrEqual(global);
      // A Node process start (≈ 0.1-0.4 s) on top of the plugin's own deadline fits in the rule's.
      const plugin = parseGoDurationSeconds(rule.args[rule.args.indexOf('--timeout') + 1] ?? '');
      expect(own - plugin).toBeGreaterThanOrEqual(2);
      expect(rule.args[rule.args.indexOf('--agent-url') + 1]).toBe('http://127.0.0.1:9787');
    }
  });
});
