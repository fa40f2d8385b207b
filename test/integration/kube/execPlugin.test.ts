// A kubeconfig exec credential plugin (users[].user.exec) that hangs, as aws / gke-gcloud-auth-plugin /
// kubelogin do while they wait for a browser login or an MFA code: the gateway must give a clear error
// within its deadline, naming the command and how to see its prompt, stop the plugin, and work on refresh
// once the plugin answers. The plugin is a real shell script; the API server is the loopback stand-in.

import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFleet } from '../../../src/demo/nodeFactory';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGateway, NodeWatch, WatchState } from '../../../src/infra/kube/gateway';
import { KubeconfigDir, waitFor } from './kubeconfigFiles';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOKEN = 'token-from-the-plugin';
const REQUEST_TIMEOUT_MS = 1_500;

/**
 * A plugin that hangs (sleeping, like one waiting at a prompt) while `<dir>/hang` exists, writing its PID
 * to `<dir>/pids`, and otherwise prints an ExecCredential. Counting runs shows when it was asked.
 */
function pluginScript(dir: string): string {
  const path = join(dir, 'credential-plugin.sh');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `echo "$$" >> '${dir}/pids'`,
      `echo "$KUBERNETES_EXEC_INFO" > '${dir}/exec-info'`,
      `if [ -e '${dir}/hang' ]; then echo "Open https://login.example/device and enter code ABCD" >&2; sleep 300; fi`,
      `printf '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"%s"}}' "$PLUGIN_TOKEN"`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

async function setup(hang: boolean) {
  const server = await startFakeApiServer({ auth: { kind: 'token', token: TOKEN }, nodes: makeFleet(3, { prefix: 'n', imageCount: 1 }) });
  cleanups.push(() => server.close());
  const files = new KubeconfigDir();
  cleanups.push(() => files.remove());
  const plugin = pluginScript(files.dir);
  if (hang) writeFileSync(join(files.dir, 'hang'), '');
  const kubeconfig = files.writeText(
    'config',
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'eks',
      clusters: [{ name: 'eks', cluster: { server: server.url } }],
      users: [
        {
          name: 'eks-user',
          user: { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: plugin, args: ['--cluster-name', 'prod eu'], env: [{ name: 'PLUGIN_TOKEN', value: TOKEN }] } },
        },
      ],
      contexts: [{ name: 'eks', context: { cluster: 'eks', user: 'eks-user' } }],
    }),
  );
  const gateway: KubeGateway = createKubeGateway({
    env: { KUBECONFIG: kubeconfig },
    watch: { backoff: { initialMs: 50, maxMs: 400, jitter: 0.5 }, requestTimeoutMs: REQUEST_TIMEOUT_MS, watchTimeoutSeconds: () => 60 },
  });
  cleanups.push(() => gateway.dispose());
  gateway.listContexts();
  const pids = (): number[] => (existsSync(join(files.dir, 'pids')) ? readFileSync(join(files.dir, 'pids'), 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);
  return { dir: files.dir, plugin, gateway, pids };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function states(watch: NodeWatch): WatchState[] {
  const seen: WatchState[] = [];
  watch.onDidChangeState((s) => seen.push(s));
  return seen;
}

describe('exec credential plugins', () => {
  it('a working plugin authenticates list and watch, is run once, and learns it may not prompt', async () => {
    const { dir, gateway, pids } = await setup(false);
    const watch = gateway.watchNodes('eks');
    await waitFor('the nodes', () => watch.nodes.size === 3);
    expect(await gateway.countPods('eks', 'n-0001')).toBe(0);
    expect(pids()).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, 'exec-info'), 'utf8'))).toEqual({ apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', spec: { interactive: false } });
  });

  it('a hanging plugin fails within the deadline, naming the command and how to see its prompt; it is stopped; refresh works once it answers', async () => {
    const { dir, plugin, gateway, pids } = await setup(true);
    const watch = gateway.watchNodes('eks');
    const seen = states(watch);
    const started = performance.now();
    await waitFor('the watch to give up', () => watch.state.kind === 'error', 10_000);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
    const state = watch.state;
    if (state.kind !== 'error') throw new Error('expected an error state');
    expect(state.error.kind).toBe('config');
    expect(state.error.message).toContain(`credential plugin \`PLUGIN_TOKEN=${TOKEN} ${plugin} --cluster-name 'prod eu'\` gave no credential within 1.5 s and was stopped`);
    expect(state.error.message).toMatch(/Run it in a terminal to see its prompt: PLUGIN_TOKEN=\S+ \S+credential-plugin\.sh --cluster-name 'prod eu' — then refresh\./);
    // Not retried on its own: a plugin waiting for a person is not helped by more copies of itself.
    expect(pids()).toHaveLength(1);
    expect(seen.filter((s) => s.kind === 'reconnecting')).toEqual([]);
    // The plugin (and the sleep it started: the whole process group) is gone.
    const [pid] = pids();
    await waitFor('the plugin to be stopped', () => pid !== undefined && !alive(pid), 2_000);

    // The user ran it in a terminal and logged in; refresh now works.
    rmSync(join(dir, 'hang'));
    watch.refresh();
    await waitFor('the nodes after refresh', () => watch.nodes.size === 3 && watch.state.kind === 'synced', 10_000);
    expect(pids()).toHaveLength(2);
  });

  it('a request cancelled by its caller stops the plugin run', async () => {
    const { gateway, pids } = await setup(true);
    const controller = new AbortController();
    const request = gateway.countPods('eks', 'n-0001', controller.signal);
    await waitFor('the plugin to start', () => pids().length === 1, 5_000);
    controller.abort(new Error('refresh requested'));
    await expect(request).rejects.toThrow('refresh requested');
    const [pid] = pids();
    await waitFor('the plugin to be stopped', () => pid !== undefined && !alive(pid), 2_000);
  });

  it('a failing plugin reports its exit status and last stderr lines', async () => {
    const { plugin, gateway } = await setup(false);
    writeFileSync(plugin, '#!/bin/sh\necho "error: SSO session expired; run aws sso login" >&2\nexit 3\n');
    const error = await gateway.countPods('eks', 'n-0001').catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/credential plugin `.*credential-plugin\.sh --cluster-name 'prod eu'` failed \(exit 3\): error: SSO session expired; run aws sso login/);
  });
});
