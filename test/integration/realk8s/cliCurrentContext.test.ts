// kubectl's conventions on the real cluster, through dist/cli.js as a user runs it: with no --context,
// `pleg-doctor diagnose` and `nodes` use the kubeconfig's current-context (the cluster kit's admin
// kubeconfig sets one, as kubeadm's does), whether the kubeconfig comes from --kubeconfig or from a
// KUBECONFIG path list; a kubeconfig without a current-context is refused with exit 2 naming both.

import { readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealCluster } from './cluster';
import { cli, kubectl, realCluster, scratchDir } from './cluster';

let cluster: RealCluster;
let scratch: { dir: string; remove: () => void };
/** The kubeconfig's current-context, as kubectl reads it. */
let current: string;
/** No KUBECONFIG from the test's own environment, and a HOME without ~/.kube. */
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  cluster = realCluster();
  scratch = scratchDir();
  current = kubectl(cluster, ['config', 'current-context']).trim();
  env = { HOME: scratch.dir, KUBECONFIG: '' };
});

afterAll(() => scratch?.remove());

interface DiagnosisJson {
  node: string;
  checks: { id: string; verdict: string }[];
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('no --context: the kubeconfig\'s current-context, as kubectl', () => {
  it('the kit\'s kubeconfig names a current context that exists', () => {
    expect(current).not.toBe('');
    expect(kubectl(cluster, ['config', 'get-contexts', '-o', 'name']).split('\n')).toContain(current);
  });

  it('diagnose --node N --kubeconfig K diagnoses the real node; the exit code is the one its help gives for the verdicts', () => {
    const run = cli(['diagnose', '--node', cluster.nodeName, '--kubeconfig', cluster.kubeconfig, '-o', 'json', '--metrics-interval', '1000', '--proxy-timeout', '10000'], env, 120_000);
    expect(run.stderr).toBe('');
    const diagnosis = JSON.parse(run.stdout) as DiagnosisJson;
    expect(diagnosis.node).toBe(cluster.nodeName);
    // The four kubelet endpoints were read through the current context's API server: their checks conclude.
    expect(diagnosis.checks.find((c) => c.id === 'syncloop-healthz')?.verdict).not.toBe('unknown');
    // "0 no check fails; 1 a check fails" (diagnose --help).
    expect(run.status).toBe(diagnosis.checks.some((c) => c.verdict === 'fail') ? 1 : 0);
  }, 150_000);

  it('nodes --kubeconfig K lists the node under the current context', () => {
    const run = cli(['nodes', '--kubeconfig', cluster.kubeconfig, '--timeout', '20s'], env);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.find((l) => l['name'] === cluster.nodeName)).toMatchObject({ context: current, name: cluster.nodeName });
    expect(new Set(lines.map((l) => l['context']))).toEqual(new Set([current]));
  });

  it('KUBECONFIG as a path list (a missing file, a file without contexts, the kit\'s): the current-context of the merge', () => {
    const empty = join(scratch.dir, 'empty.yaml');
    writeFileSync(empty, 'apiVersion: v1\nkind: Config\n');
    const list = [join(scratch.dir, 'missing.yaml'), empty, cluster.kubeconfig].join(delimiter);
    const nodes = cli(['nodes', '-o', 'json', '--timeout', '20s'], { ...env, KUBECONFIG: list });
    expect(nodes.stderr).toBe('');
    expect(nodes.status).toBe(0);
    expect(jsonLines(nodes.stdout).find((l) => l['name'] === cluster.nodeName)?.['context']).toBe(current);
  });

  it('a kubeconfig without a current-context: exit 2, naming --context and current-context, nothing printed', () => {
    const bare = join(scratch.dir, 'no-current.yaml');
    writeFileSync(bare, readFileSync(cluster.kubeconfig, 'utf8').replace(/^current-context:.*$/mu, ''));
    const run = cli(['diagnose', '--node', cluster.nodeName, '--kubeconfig', bare], env);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`pleg-doctor: diagnose: no --context given and the kubeconfig sets no current-context (read ${bare}); give --context NAME (contexts: ${current})\n`);
  });
});
