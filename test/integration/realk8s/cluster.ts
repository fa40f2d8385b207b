// The real cluster of one kit (test/support/real-cluster.sh: 1.26, 1.36 or 1.22; PLEG_REAL_K8S_KIT picks it,
// each vitest project sets it) for the realk8s tests. It is started on first use, once per vitest run,
// after taking down a cluster of another kit (they share ports), and taken down by ./kitGlobalSetup.ts at
// the end of the run that started it; a cluster of this kit somebody else started is reused and left
// running. No cluster kit on the machine is an error naming what to provide, never a skip.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseNodeStackEnv } from '../../support/nodeStackEnv';

export const SCRIPT = resolve(__dirname, '../../support/real-cluster.sh');
export const REPO = resolve(__dirname, '../../..');

/** The cluster kits real-cluster.sh knows (its header says which folder each is). */
export const KITS = ['1.26', '1.36', '1.22'] as const;
export type Kit = (typeof KITS)[number];

/** The kit of this vitest project (its `env`), 1.26 when none is set, as real-cluster.sh defaults. */
export function currentKit(): Kit {
  const kit = process.env['PLEG_REAL_K8S_KIT'] ?? '1.26';
  if (!(KITS as readonly string[]).includes(kit)) throw new Error(`PLEG_REAL_K8S_KIT=${kit}: the kits are ${KITS.join(', ')}`);
  return kit as Kit;
}

/** Written by the run that started the kit's cluster; ./kitGlobalSetup.ts takes it down when it holds its token. */
export function ownerFile(kit: Kit): string {
  return join(tmpdir(), `pleg-realk8s-owner-${kit}`);
}

/** The env key ./kitGlobalSetup.ts hands its run's token in (one per kit: projects may share a process). */
export function runTokenKey(kit: Kit): string {
  return `PLEG_REALK8S_RUN_TOKEN_${kit.replace('.', '_')}`;
}

/** The normalised keys real-cluster.sh prints for every kit (its header lists them). */
export interface RealCluster {
  kit: Kit;
  kubeconfig: string;
  nodeName: string;
  criSocket: string;
  /** The process `freeze` stops: containerd, or dockerd behind 1.22's dockershim. */
  runtime: 'containerd' | 'dockerd';
  runtimePid: number;
  runtimeLog: string;
  kubeletPid: number;
  kubeletLog: string;
  kubeletConfig: string;
  caCert: string;
  caKey: string;
  etcdUrl: string;
  etcdCert: string;
  etcdKey: string;
  logDir: string;
  raw: Record<string, string>;
}

export function script(verb: string, args: string[] = [], timeoutMs = 240_000, kit: Kit = currentKit()): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', [SCRIPT, verb, ...args], { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, PLEG_REAL_K8S_KIT: kit } });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function parse(stdout: string): RealCluster {
  const raw = parseNodeStackEnv(stdout);
  const need = (k: string): string => {
    const v = raw[k];
    if (v === undefined || v === '') throw new Error(`real-cluster.sh printed no ${k}:\n${stdout}`);
    return v;
  };
  const runtime = need('RUNTIME');
  if (runtime !== 'containerd' && runtime !== 'dockerd') throw new Error(`real-cluster.sh printed RUNTIME=${runtime}`);
  return {
    kit: need('KIT') as Kit,
    kubeconfig: need('KUBECONFIG'),
    nodeName: need('NODE_NAME'),
    criSocket: need('CRI_SOCKET'),
    runtime,
    runtimePid: Number(need('RUNTIME_PID')),
    runtimeLog: need('RUNTIME_LOG'),
    kubeletPid: Number(need('KUBELET_PID')),
    kubeletLog: need('KUBELET_LOG'),
    kubeletConfig: need('KUBELET_CONFIG'),
    caCert: need('CA_CERT'),
    caKey: need('CA_KEY'),
    etcdUrl: need('ETCD_URL'),
    etcdCert: need('ETCD_CLIENT_CERT'),
    etcdKey: need('ETCD_CLIENT_KEY'),
    logDir: need('LOG_DIR'),
    raw,
  };
}

/** `down` then `check` of one kit; throws with both outputs when something is left behind. */
export function takeDown(kit: Kit): void {
  const down = script('down', [], 240_000, kit);
  const check = script('check', [], 120_000, kit);
  if (down.status !== 0 || check.status !== 0) {
    throw new Error(`the real ${kit} cluster left things behind (down exit ${down.status}, check exit ${check.status}):\n${down.stderr.slice(-2000)}\n${check.stderr}`);
  }
}

/** The running cluster of this project's kit, started now if it is not up (about 10-25 s). */
export function realCluster(): RealCluster {
  const kit = currentKit();
  const status = script('status');
  if (status.status === 0) return parse(status.stdout);
  // The kits share their ports: a cluster of another kit (an earlier project of `npm run test:integration`
  // that reused it, or a developer's) must go first.
  // `down` of a kit with no state does nothing.
  for (const other of KITS) if (other !== kit) takeDown(other);
  const up = script('up');
  if (up.status !== 0) throw new Error(`the real ${kit} cluster could not be started (PLEG_REAL_K8S_KIT=${kit} real-cluster.sh up, exit ${up.status}):\n${up.stderr.slice(-3000)}`);
  const token = process.env[runTokenKey(kit)];
  if (token !== undefined && !/reusing it/.test(up.stderr)) writeFileSync(ownerFile(kit), token);
  return parse(up.stdout);
}

export function kubectl(cluster: RealCluster, args: string[], input?: string): string {
  const r = spawnSync('kubectl', ['--kubeconfig', cluster.kubeconfig, ...args], { encoding: 'utf8', input, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed (exit ${r.status}): ${r.stderr}`);
  return r.stdout;
}

export function readyCondition(cluster: RealCluster): { status: string; reason: string; message: string } {
  const out = kubectl(cluster, ['get', 'node', cluster.nodeName, '-o', 'jsonpath={range .status.conditions[?(@.type=="Ready")]}{.status}|{.reason}|{.message}{end}']);
  const [status = '', reason = '', ...message] = out.split('|');
  return { status, reason, message: message.join('|') };
}

/** A Node object without a kubelet behind it (nothing deletes or updates it here: no controller-manager). */
export function createExtraNode(cluster: RealCluster, name: string): void {
  kubectl(cluster, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'pleg-doctor-test': 'extra' } } }));
}

export function deleteExtraNodes(cluster: RealCluster): void {
  kubectl(cluster, ['delete', 'nodes', '-l', 'pleg-doctor-test=extra', '--ignore-not-found', '--wait=false']);
}

/** A kubeconfig for user `name` (groups `groups`) with a client certificate signed by the cluster CA. */
export function userKubeconfig(cluster: RealCluster, dir: string, name: string, groups: string[] = []): string {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const crt = join(dir, `${name}.crt`);
  const subject = [...groups.map((g) => `/O=${g}`), `/CN=${name}`].join('');
  const run = (args: string[]): void => {
    const r = spawnSync('openssl', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
  };
  run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', key]);
  run(['req', '-new', '-key', key, '-subj', subject, '-out', csr]);
  run(['x509', '-req', '-in', csr, '-CA', cluster.caCert, '-CAkey', cluster.caKey, '-CAcreateserial', '-CAserial', join(dir, 'ca.srl'), '-days', '1', '-sha256', '-out', crt]);
  const b64 = (f: string): string => readFileSync(f).toString('base64');
  const server = /server: (\S+)/.exec(readFileSync(cluster.kubeconfig, 'utf8'))?.[1] ?? 'https://127.0.0.1:6443';
  const file = join(dir, `${name}.kubeconfig`);
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': name,
    clusters: [{ name: 'realk8s', cluster: { server, 'certificate-authority-data': b64(cluster.caCert) } }],
    users: [{ name, user: { 'client-certificate-data': b64(crt), 'client-key-data': b64(key) } }],
    contexts: [{ name, context: { cluster: 'realk8s', user: name } }],
  };
  writeFileSync(file, JSON.stringify(doc, null, 2), { mode: 0o600 });
  return file;
}

export function scratchDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-realk8s-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** POST to etcd's v3 JSON gateway (the same API etcdctl speaks), with the API server's client certificate. */
function etcd(cluster: RealCluster, path: string, body: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolvePromise, reject) => {
    const url = new URL(path, cluster.etcdUrl);
    const req = request(
      url,
      { method: 'POST', ca: readFileSync(cluster.caCert), cert: readFileSync(cluster.etcdCert), key: readFileSync(cluster.etcdKey), timeout: 10_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`etcd ${path}: HTTP ${res.statusCode} ${text}`));
          else resolvePromise(JSON.parse(text) as Record<string, unknown>);
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`etcd ${path}: no answer in 10 s`)));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Compacts etcd's history up to its current revision; returns that revision. */
export async function compactEtcd(cluster: RealCluster): Promise<number> {
  const range = await etcd(cluster, '/v3/kv/range', { key: Buffer.from('/').toString('base64'), limit: 1 });
  const revision = Number((range['header'] as { revision?: string } | undefined)?.revision);
  if (!Number.isInteger(revision) || revision <= 0) throw new Error(`etcd answered no revision: ${JSON.stringify(range)}`);
  await etcd(cluster, '/v3/kv/compaction', { revision: String(revision), physical: true });
  return revision;
}

/** `node dist/cli.js …` as a user runs it; the tier runs after `npm run build`. */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): { status: number | null; stdout: string; stderr: string } {
  const main = join(REPO, 'dist/cli.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const r = spawnSync(process.execPath, [main, ...args], { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, pollMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** The last `lines` lines of a log file, or a line saying why there are none. */
export function logTail(path: string, lines: number): string {
  if (!existsSync(path)) return `(no ${path})`;
  return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}
