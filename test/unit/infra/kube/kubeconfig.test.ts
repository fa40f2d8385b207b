import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKubeGateway } from '../../../../src/infra/kube/createGateway';
import { KubeConfigError, kubeconfigFiles, kubectlHome, loadKubeconfigs, mergeKubeconfigs, parseKubeconfig } from '../../../../src/infra/kube/kubeconfig';

const fileA = `apiVersion: v1
kind: Config
current-context: alpha
clusters:
- name: shared
  cluster:
    server: https://a.example:6443
    certificate-authority: certs/ca.crt
users:
- name: admin
  user:
    client-certificate: ./admin.crt
    client-key: /abs/admin.key
contexts:
- name: alpha
  context: {cluster: shared, user: admin, namespace: ops}
- name: both
  context: {cluster: shared, user: admin}
`;

const fileB = `apiVersion: v1
kind: Config
current-context: beta
clusters:
- name: shared
  cluster: {server: https://b-should-lose.example:6443}
- name: bcluster
  cluster: {server: https://b.example}
users:
- name: buser
  user: {token: abc}
contexts:
- name: both
  context: {cluster: bcluster, user: buser}
- name: beta
  context: {cluster: bcluster, user: buser}
- name: broken
  context: {cluster: ghost, user: buser}
- name: nouser
  context: {cluster: bcluster, user: phantom}
`;

describe('mergeKubeconfigs (kubectl rules)', () => {
  const merged = mergeKubeconfigs([
    { file: '/home/u/.kube/a.yaml', text: fileA },
    { file: '/tmp/b.yaml', text: fileB },
  ]);

  it('keeps every context of every file, first definition wins', () => {
    expect(merged.contexts.map((c) => [c.info.name, c.info.server, c.info.source])).toEqual([
      ['alpha', 'https://a.example:6443', '/home/u/.kube/a.yaml'],
      ['both', 'https://a.example:6443', '/home/u/.kube/a.yaml'],
      ['beta', 'https://b.example', '/tmp/b.yaml'],
      ['broken', '', '/tmp/b.yaml'],
      ['nouser', 'https://b.example', '/tmp/b.yaml'],
    ]);
  });

  it('takes current-context from the first file that sets it', () => {
    expect(merged.currentContext).toBe('alpha');
    expect(merged.contexts.filter((c) => c.info.isCurrent).map((c) => c.info.name)).toEqual(['alpha']);
    expect(merged.contexts[0]?.info.namespace).toBe('ops');
  });

  it('resolves relative paths against the defining file', () => {
    const alpha = merged.contexts[0];
    expect(alpha?.cluster?.['certificate-authority']).toBe('/home/u/.kube/certs/ca.crt');
    expect(alpha?.user?.['client-certificate']).toBe('/home/u/.kube/admin.crt');
    expect(alpha?.user?.['client-key']).toBe('/abs/admin.key');
  });

  it('flags dangling references with the file that made them', () => {
    const broken = merged.contexts.find((c) => c.info.name === 'broken');
    expect(broken?.problem?.kind).toBe('config');
    expect(broken?.problem?.message).toBe('kubeconfig /tmp/b.yaml: context "broken" refers to cluster "ghost", which no kubeconfig file defines');
    const nouser = merged.contexts.find((c) => c.info.name === 'nouser');
    expect(nouser?.problem?.message).toContain('user "phantom"');
    expect(merged.contexts.find((c) => c.info.name === 'beta')?.problem).toBeUndefined();
  });
});

describe('parseKubeconfig errors name the file and the cause', () => {
  it.each([
    ['clusters: [\n  - name: x\n', 'invalid YAML'],
    ['- just\n- a list\n', 'the document is not a mapping'],
    ['clusters: {a: 1}\n', '"clusters" must be a list'],
    ['contexts:\n- context: {cluster: c}\n', 'contexts[0].name is missing'],
    ['users:\n- name: u\n  user: 42\n', 'users[0] ("u"): "user" must be a mapping'],
  ])('%j', (text, reason) => {
    let thrown: unknown;
    try {
      parseKubeconfig(text, '/x/config');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(KubeConfigError);
    expect((thrown as KubeConfigError).message).toContain('kubeconfig /x/config: ');
    expect((thrown as KubeConfigError).message).toContain(reason);
    expect((thrown as KubeConfigError).file).toBe('/x/config');
  });

  it('accepts an empty file', () => {
    expect(parseKubeconfig('', '/x/empty')).toEqual({ clusters: [], users: [], contexts: [] });
  });
});

describe('kubeconfigFiles', () => {
  it('splits KUBECONFIG, drops empties and duplicates', () => {
    expect(kubeconfigFiles(undefined, { KUBECONFIG: '/a::/b:/a' }, '/home/u')).toEqual({ files: ['/a', '/b'], required: false });
  });
  it('falls back to ~/.kube/config', () => {
    expect(kubeconfigFiles(undefined, {}, '/home/u')).toEqual({ files: ['/home/u/.kube/config'], required: false });
  });
  it('prefers explicit paths, which must exist', () => {
    expect(kubeconfigFiles(['/c'], { KUBECONFIG: '/a' }, '/home/u')).toEqual({ files: ['/c'], required: true });
  });
});

describe('~/.kube/config is under $HOME, as kubectl reads it', () => {
  it.skipIf(process.platform === 'win32')('HOME from the given environment; unset or empty, the OS home', () => {
    expect(kubectlHome({ HOME: '/home/other' })).toBe('/home/other');
    expect(kubeconfigFiles(undefined, { HOME: '/home/other' })).toEqual({ files: ['/home/other/.kube/config'], required: false });
    expect(kubectlHome({ HOME: '' })).not.toBe('');
    expect(kubectlHome({})).not.toBe('');
  });
});

describe('what a load read: files, the files looked for, and the current-context even when it names nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-kubeconfig-'));
  const home = join(dir, 'home');
  const a = join(dir, 'a.yaml');
  const dangling = join(dir, 'dangling.yaml');
  writeFileSync(a, fileA);
  writeFileSync(dangling, 'apiVersion: v1\nkind: Config\ncurrent-context: gone\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('no KUBECONFIG and no ~/.kube/config: nothing read, the default file looked for', () => {
    const loaded = loadKubeconfigs(undefined, { HOME: home });
    expect(loaded).toMatchObject({ files: [], searched: [join(home, '.kube', 'config')], contexts: [] });
    expect(loaded.currentContext).toBeUndefined();
  });

  it('a KUBECONFIG list: missing files looked for but not read; the first current-context wins even when it names no context', () => {
    const missing = join(dir, 'missing.yaml');
    const loaded = loadKubeconfigs(undefined, { HOME: home, KUBECONFIG: [missing, dangling, a].join(delimiter) });
    expect(loaded.files).toEqual([dangling, a]);
    expect(loaded.searched).toEqual([missing, dangling, a]);
    expect(loaded.currentContext).toBe('gone');
    expect(loaded.contexts.some((c) => c.info.isCurrent)).toBe(false);
  });

  it('the gateway reports the same, from the environment it was given', () => {
    const gateway = createKubeGateway({ env: { HOME: home, KUBECONFIG: [dangling, a].join(delimiter) } });
    try {
      expect(gateway.listContexts().map((c) => c.name)).toEqual(['alpha', 'both']);
      expect(gateway.kubeconfigSummary?.()).toEqual({ files: [dangling, a], searched: [dangling, a], currentContext: 'gone' });
    } finally {
      gateway.dispose();
    }
  });
});
