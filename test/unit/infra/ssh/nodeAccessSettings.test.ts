import { describe, expect, it } from 'vitest';
import { problemsBlocking, validateNodeAccessClusters, validateNodeAccessConfig } from '../../../../src/infra/ssh/nodeAccessSettings';
import { resolveNodeTarget } from '../../../../src/infra/ssh/nodeTarget';

const messages = (raw: unknown): string[] => validateNodeAccessClusters(raw).problems.map((p) => p.message);

describe('validateNodeAccessClusters', () => {
  it('accepts a full, valid value unchanged and reports nothing', () => {
    const raw = {
      prod: {
        user: 'ops',
        port: 2222,
        jumpHost: 'ops@bastion.example.com:22,inner',
        sudo: true,
        hostTemplate: '{name}.nodes.example.com',
        nodes: { n1: { host: '10.0.0.7', user: 'root', port: 22 }, n2: {} },
      },
      'arn:aws:eks:eu-west-1:1:cluster/x': { hostTemplate: 'ssh-{internalIP}' },
    };
    const { settings, problems } = validateNodeAccessClusters(raw);
    expect(problems).toEqual([]);
    expect(settings.clusters).toEqual(raw);
  });

  it('treats a missing value as no settings', () => {
    expect(validateNodeAccessClusters(undefined)).toEqual({ settings: { clusters: {} }, problems: [] });
    expect(validateNodeAccessClusters(null)).toEqual({ settings: { clusters: {} }, problems: [] });
  });

  it('names the exact path of a bad node port', () => {
    const { settings, problems } = validateNodeAccessClusters({ prod: { nodes: { n1: { host: 'a', port: 70000 } } } });
    expect(problems).toEqual([
      {
        path: 'plegDoctor.nodeAccess.clusters["prod"].nodes["n1"].port',
        message: 'plegDoctor.nodeAccess.clusters["prod"].nodes["n1"].port must be an integer 1–65535, got 70000',
        context: 'prod',
        node: 'n1',
      },
    ]);
    // The bad field is dropped, the rest is kept.
    expect(settings.clusters['prod']?.nodes?.['n1']).toEqual({ host: 'a' });
  });

  it.each([
    [[], 'plegDoctor.nodeAccess.clusters must be an object keyed by kubeconfig context name, got an array'],
    ['prod', 'plegDoctor.nodeAccess.clusters must be an object keyed by kubeconfig context name, got "prod"'],
    [{ prod: 5 }, 'plegDoctor.nodeAccess.clusters["prod"] must be an object (user, port, jumpHost, sudo, hostTemplate, nodes), got 5'],
    [{ prod: { prot: 22 } }, 'plegDoctor.nodeAccess.clusters["prod"].prot is not a known key (known: user, port, jumpHost, sudo, hostTemplate, nodes)'],
    [{ prod: { port: '22' } }, 'plegDoctor.nodeAccess.clusters["prod"].port must be an integer 1–65535, got "22"'],
    [{ prod: { port: 22.5 } }, 'plegDoctor.nodeAccess.clusters["prod"].port must be an integer 1–65535, got 22.5'],
    [{ prod: { sudo: 'yes' } }, 'plegDoctor.nodeAccess.clusters["prod"].sudo must be true or false, got "yes"'],
    [{ prod: { user: '-oProxyCommand=x' } }, 'plegDoctor.nodeAccess.clusters["prod"].user must be a user name (letters, digits, . _ - @; not starting with -), got "-oProxyCommand=x"'],
    [{ prod: { hostTemplate: '{nam}.x' } }, 'plegDoctor.nodeAccess.clusters["prod"].hostTemplate uses unknown token {nam} (known: {name} {internalIP} {externalIP} {hostname})'],
    [{ prod: { jumpHost: 'bastion:99999' } }, 'plegDoctor.nodeAccess.clusters["prod"].jumpHost is not a valid ProxyJump value: ProxyJump bastion:99999: invalid port "99999"'],
    [{ prod: { jumpHost: '' } }, 'plegDoctor.nodeAccess.clusters["prod"].jumpHost must be a ProxyJump value such as "ops@bastion:22" (or "none"), got ""'],
    [{ prod: { nodes: [] } }, 'plegDoctor.nodeAccess.clusters["prod"].nodes must be an object keyed by node name, got an array'],
    [{ prod: { nodes: { n1: 'host' } } }, 'plegDoctor.nodeAccess.clusters["prod"].nodes["n1"] must be an object with host, user or port, got "host"'],
    [{ prod: { nodes: { n1: { host: 'a b' } } } }, 'plegDoctor.nodeAccess.clusters["prod"].nodes["n1"].host must be a host name, an address or an ssh_config Host alias, got "a b"'],
    [{ prod: { nodes: { n1: { hots: 'a' } } } }, 'plegDoctor.nodeAccess.clusters["prod"].nodes["n1"].hots is not a known key (known: host, user, port)'],
  ])('%j → %s', (raw, message) => {
    expect(messages(raw)).toEqual([message]);
  });

  it('reports every problem, not just the first', () => {
    expect(messages({ a: { port: 0, sudo: 1 }, b: { nodes: { x: { port: -1 } } } })).toHaveLength(3);
  });

  it('blocks node access only where a problem applies', () => {
    const { problems } = validateNodeAccessClusters({ prod: { nodes: { n1: { port: 0 } } }, dev: { port: 'x' }, ok: { user: 'u' } });
    expect(problemsBlocking(problems, 'prod', 'n1').map((p) => p.path)).toEqual(['plegDoctor.nodeAccess.clusters["prod"].nodes["n1"].port']);
    expect(problemsBlocking(problems, 'prod', 'n2')).toEqual([]);
    expect(problemsBlocking(problems, 'dev', 'any')).toHaveLength(1);
    expect(problemsBlocking(problems, 'ok', 'n1')).toEqual([]);
    // A clusters value that is not an object at all blocks every node.
    const bad = validateNodeAccessClusters([]).problems;
    expect(problemsBlocking(bad, 'ok', 'n1')).toHaveLength(1);
  });

  it('what it lets through resolves to the target the user configured', () => {
    const { settings } = validateNodeAccessClusters({ prod: { user: 'ops', port: 2200, nodes: { n1: { host: 'node-1.example', port: 22 } } } });
    const node = { metadata: { name: 'n1' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } };
    expect(resolveNodeTarget(node, 'prod', settings)).toEqual({ nodeName: 'n1', host: 'node-1.example', addressSource: 'node-override', port: 22, user: 'ops', sudo: false });
  });
});

describe('validateNodeAccessConfig', () => {
  it('applies the defaults when nothing is set', () => {
    const { config, problems } = validateNodeAccessConfig({});
    expect(problems).toEqual([]);
    expect(config).toEqual({
      clusters: { clusters: {} },
      identityFiles: [],
      sshConfigFile: '',
      criEndpoint: '',
      transport: 'auto',
      callTimeoutMs: 5000,
      probes: true,
      useSshAgent: true,
    });
  });

  it('keeps good values and reports bad ones, falling back to the default', () => {
    const { config, problems } = validateNodeAccessConfig({
      identityFiles: ['~/.ssh/a', 7, '~/.ssh/a', ''],
      sshConfigFile: ' ~/ssh/config ',
      transport: 'socket',
      callTimeoutMs: 50,
      probes: false,
      useSshAgent: 'no',
    });
    expect(config.identityFiles).toEqual(['~/.ssh/a']);
    expect(config.sshConfigFile).toBe('~/ssh/config');
    expect(config.transport).toBe('auto');
    expect(config.callTimeoutMs).toBe(5000);
    expect(config.probes).toBe(false);
    expect(config.useSshAgent).toBe(true);
    expect(problems.map((p) => p.message)).toEqual([
      'plegDoctor.nodeAccess.identityFiles[1] must be a file path, got 7',
      'plegDoctor.nodeAccess.identityFiles[3] must be a file path, got ""',
      'plegDoctor.nodeAccess.transport must be one of auto, forward, exec, crictl, got "socket"',
      'plegDoctor.nodeAccess.callTimeoutMs must be a number of milliseconds from 100 to 3600000, got 50',
      'plegDoctor.nodeAccess.useSshAgent must be true or false, got "no"',
    ]);
    // None of these says where to connect, so none blocks a node.
    expect(problemsBlocking(problems, 'prod', 'n1')).toEqual([]);
  });
});
