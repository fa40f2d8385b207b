import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { demoKubeconfigYaml } from '../../../src/demo/demoKubeconfig';

describe('demoKubeconfigYaml', () => {
  it('writes a kubeconfig that @kubernetes/client-node loads with every context, server and token', () => {
    const yaml = demoKubeconfigYaml([
      { context: 'prod-eu', server: 'http://127.0.0.1:40001', token: 'tok-a' },
      { context: 'staging', server: 'http://127.0.0.1:40002', token: 'tok: "quoted" #not-a-comment' },
      { context: 'offline-lab', server: 'http://127.0.0.1:1', namespace: 'kube-system' },
    ]);
    const kc = new KubeConfig();
    kc.loadFromString(yaml);
    expect(kc.getContexts().map((c) => c.name)).toEqual(['prod-eu', 'staging', 'offline-lab']);
    expect(kc.getCurrentContext()).toBe('prod-eu');
    expect(kc.getCluster('staging')?.server).toBe('http://127.0.0.1:40002');
    expect(kc.getUser('staging-user')?.token).toBe('tok: "quoted" #not-a-comment');
    expect(kc.getUser('offline-lab-user')?.token).toBeUndefined();
    expect(kc.getContextObject('offline-lab')?.namespace).toBe('kube-system');
  });

  it('honours an explicit current context', () => {
    const kc = new KubeConfig();
    kc.loadFromString(
      demoKubeconfigYaml(
        [
          { context: 'a', server: 'http://127.0.0.1:1' },
          { context: 'b', server: 'http://127.0.0.1:2' },
        ],
        'b',
      ),
    );
    expect(kc.getCurrentContext()).toBe('b');
  });

  it('rejects bad input with an error naming the cause', () => {
    expect(() => demoKubeconfigYaml([])).toThrow(/at least one context/);
    expect(() =>
      demoKubeconfigYaml([
        { context: 'a', server: 'http://127.0.0.1:1' },
        { context: 'a', server: 'http://127.0.0.1:2' },
      ]),
    ).toThrow(/"a" appears twice/);
    expect(() => demoKubeconfigYaml([{ context: 'a', server: '127.0.0.1:1' }])).toThrow(/not an http\(s\) URL/);
    expect(() => demoKubeconfigYaml([{ context: ' ', server: 'http://127.0.0.1:1' }])).toThrow(/empty/);
    expect(() => demoKubeconfigYaml([{ context: 'a', server: 'http://127.0.0.1:1' }], 'zz')).toThrow(/"zz" is not among/);
  });
});
