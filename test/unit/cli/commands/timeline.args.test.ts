import { describe, expect, it } from 'vitest';
import { parseTimelineArgs } from '../../../../src/cli/commands/timeline';

describe('pleg-doctor timeline options', () => {
  it('defaults: 10 min at 1 s against 3 min', () => {
    expect(parseTimelineArgs(['--node', 'n1', '--context', 'c', '--out', 's.json'])).toMatchObject({ node: 'n1', context: 'c', forMs: 600_000, periodMs: 1_000, thresholdMs: 180_000, ssh: undefined, evented: false });
    expect(parseTimelineArgs(['--help'])).toBe('help');
  });

  it('names the bad option', () => {
    expect(() => parseTimelineArgs(['--node', 'n1', '--context', 'c'])).toThrow('timeline: --out FILE is required');
    expect(() => parseTimelineArgs(['--node', 'n1', '--context', 'c', '--out', 'x', '--for', 'ten'])).toThrow(/--for must be a duration/u);
    expect(() => parseTimelineArgs(['--node', 'n1', '--context', 'c', '--out', 'x', '--period', '10ms'])).toThrow(/--period must be at least 100 ms/u);
    expect(() => parseTimelineArgs(['--node', 'n1', '--context', 'c', '--out', 'x', '--port', '22'])).toThrow(/--port is a node-side option: add --ssh/u);
    expect(() => parseTimelineArgs(['--node', 'n1', '--context', 'c', '--out', 'x', '--kubelet-version', 'two'])).toThrow(/--kubelet-version/u);
    expect(() => parseTimelineArgs(['--bogus'])).toThrow(/unknown option/u);
  });

  it('no --context is no error here: the kubeconfig\'s current-context is looked up when the command runs', () => {
    expect(parseTimelineArgs(['--node', 'n1', '--out', 'x'])).toMatchObject({ node: 'n1', ssh: undefined });
    expect(parseTimelineArgs(['--node', 'n1', '--out', 'x'])).not.toHaveProperty('context');
  });

  it('--from-metrics needs only --out', () => {
    expect(parseTimelineArgs(['--from-metrics', 'dir', '--out', 'x'])).toMatchObject({ fromMetrics: 'dir', out: 'x' });
  });
});

describe('pleg-doctor timeline --threshold: the model\'s, as in the panel', () => {
  it('is refused where no model runs (no --ssh, no --cri-socket, or --from-metrics): the kubelet\'s own 3m0s holds there', () => {
    expect(() => parseTimelineArgs(['--node', 'n1', '--context', 'c', '--out', 'x', '--threshold', '10s'])).toThrow(/--threshold is the model's, and no model runs without --ssh or --cri-socket.*3m0s/u);
    expect(() => parseTimelineArgs(['--from-metrics', 'dir', '--out', 'x', '--threshold', '10s'])).toThrow(/--threshold is the model's/u);
  });

  it('is taken with --ssh or --cri-socket', () => {
    expect(parseTimelineArgs(['--node', 'n1', '--out', 'x', '--ssh', '--host', 'h', '--threshold', '10s'])).toMatchObject({ thresholdMs: 10_000 });
    expect(parseTimelineArgs(['--node', 'n1', '--out', 'x', '--cri-socket', '/run/containerd/containerd.sock', '--threshold', '10s'])).toMatchObject({ thresholdMs: 10_000 });
  });
});
