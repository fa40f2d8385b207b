import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GoroutineDumpError, parseGoroutineDump, summarizeGoroutineDump } from '../../../../src/core/parse/goroutineDump';

const read = (name: string): string => readFileSync(new URL(`../../../fixtures/real-kubelet-1.32/${name}`, import.meta.url), 'utf8');
const dump = (phase: string): string => read(`goroutines-${phase}.txt`);

/** An independent count: goroutine blocks whose text mentions a CRI client method. */
function criBlocksByGrep(text: string): number {
  return text.split(/\n\n+/).filter((block) => /\.\(\*(?:runtime|image)ServiceClient\)\./.test(block)).length;
}

describe('summarizeGoroutineDump on the real kubelet 1.32 recording', () => {
  it('healthy: the relist goroutine (started by GenericPLEG.Start) sleeps between relists', () => {
    const s = summarizeGoroutineDump(dump('healthy'));
    expect(s.total).toBe(91);
    expect(s.relist).toEqual({ id: 244, state: 'select', blockedIn: 'idle' });
    expect(s.criBlocked).toEqual([]);
  });

  it('T+60 s: the relist waits in ListPodSandbox for a minute', () => {
    const s = summarizeGoroutineDump(dump('stopped-T+060s'));
    expect(s.total).toBe(111);
    expect(s.relist).toEqual({ id: 244, state: 'select', waitMinutes: 1, blockedIn: 'ListPodSandbox' });
  });

  it('T+210 s: the relist waits in ListPodSandbox for 2 minutes, with 17 goroutines inside CRI calls', () => {
    const s = summarizeGoroutineDump(dump('stopped-T+210s'));
    expect(s.total).toBe(135);
    expect(s.relist).toEqual({ id: 244, state: 'select', waitMinutes: 2, blockedIn: 'ListPodSandbox' });
    expect(s.criBlocked).toEqual([
      { method: 'ListContainers', count: 12, maxWaitMinutes: 2 },
      { method: 'ExecSync', count: 1, maxWaitMinutes: 2 },
      { method: 'ImageFsInfo', count: 1, maxWaitMinutes: 2 },
      { method: 'ListImages', count: 1, maxWaitMinutes: 1 },
      { method: 'ListPodSandbox', count: 1, maxWaitMinutes: 2 },
      { method: 'Status', count: 1, maxWaitMinutes: 2 },
    ]);
  });

  it('final (≈ +294 s): the third attempt has waited a minute', () => {
    const s = summarizeGoroutineDump(dump('stopped-final'));
    expect(s.relist).toEqual({ id: 244, state: 'select', waitMinutes: 1, blockedIn: 'ListPodSandbox' });
    expect(s.criBlocked.reduce((n, c) => n + c.count, 0)).toBe(17);
  });

  it('recovered C+15 s: idle again, nothing waits on the runtime', () => {
    const s = summarizeGoroutineDump(dump('recovered-C+015s'));
    expect(s.total).toBe(95);
    expect(s.relist?.blockedIn).toBe('idle');
    expect(s.criBlocked).toEqual([]);
  });

  // The recorder's *.cri-blocked-summary.txt files say "blocked in CRI calls: 0" for every phase. That is
  // wrong for the frozen phases, whose stacks plainly sit inside runtimeServiceClient calls; we count them
  // and check the count against an independent grep of the dump.
  it.each(['healthy', 'stopped-T+060s', 'stopped-T+210s', 'stopped-final', 'recovered-C+015s'])('%s: the recorder summary is wrong about CRI calls, ours is not', (phase) => {
    const recorded = /^(\d+) goroutines; blocked in CRI calls: (\d+)$/.exec(read(`goroutines-${phase}.cri-blocked-summary.txt`).trim());
    expect(recorded).not.toBeNull();
    const s = summarizeGoroutineDump(dump(phase));
    expect(s.total).toBe(Number(recorded?.[1]));
    expect(Number(recorded?.[2])).toBe(0);
    const ours = s.criBlocked.reduce((n, c) => n + c.count, 0);
    expect(ours).toBe(criBlocksByGrep(dump(phase)));
    if (phase.startsWith('stopped')) expect(ours).toBeGreaterThan(10);
  });

  it('keeps function names without their argument lists, innermost first', () => {
    const relist = parseGoroutineDump(dump('stopped-T+210s')).find((g) => g.id === 244);
    expect(relist?.functions[0]).toBe('google.golang.org/grpc/internal/transport.(*Stream).waitOnHeader');
    expect(relist?.functions).toContain('k8s.io/cri-api/pkg/apis/runtime/v1.(*runtimeServiceClient).ListPodSandbox');
    expect(relist?.functions).toContain('k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist');
    expect(relist?.functions.at(-1)).toBe('k8s.io/apimachinery/pkg/util/wait.Until');
    expect(relist?.createdBy).toBe('k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Start');
  });
});

const frame = (fn: string, file = 'x.go:1 +0x1'): string => `${fn}\n\t${file}`;
const goroutine = (header: string, ...frames: string[]): string => [header, ...frames].join('\n');

describe('summarizeGoroutineDump: other kubelets', () => {
  it('pre-1.14 deadlock: relist (lower case) stuck in a channel send for 1140 minutes', () => {
    const text = goroutine(
      'goroutine 386 [chan send, 1140 minutes]:',
      frame('k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).relist(0xc420928000)'),
      frame('k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).(k8s.io/kubernetes/pkg/kubelet/pleg.relist)-fm()'),
      frame('k8s.io/kubernetes/vendor/k8s.io/apimachinery/pkg/util/wait.JitterUntil.func1(0xc4207c4b10)'),
      'created by k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Start\n\t/workspace/pkg/kubelet/pleg/generic.go:130 +0x88',
    );
    expect(summarizeGoroutineDump(text).relist).toEqual({ id: 386, state: 'chan send', waitMinutes: 1140, blockedIn: 'chan send' });
  });

  it('a stuck shim: relist inside GetPodStatus → PodSandboxStatus (v1alpha2 client), two minutes', () => {
    const text = [
      goroutine(
        'goroutine 301 [select, 2 minutes]:',
        frame('google.golang.org/grpc.(*ClientConn).Invoke(0xc0001, {0x1, 0x2}, {0x3, 0x4}, {0x5, 0x6}, {0x7, 0x8}, {0x0, 0x0, 0x0})'),
        frame('k8s.io/kubernetes/vendor/k8s.io/cri-api/pkg/apis/runtime/v1alpha2.(*runtimeServiceClient).PodSandboxStatus(0xc0002, {0x1, 0x2}, 0xc0003, {0x0, 0x0, 0x0})'),
        frame('k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).GetPodStatus(0xc0004, {0x1, 0x2}, {0xc0005, 0x24}, {0xc0006, 0x9}, {0xc0007, 0x7})'),
        frame('k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).updateCache(0xc0008, {0x1, 0x2}, 0xc0009, {0xc0005, 0x24})'),
        frame('k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist(0xc0008)'),
        frame('k8s.io/apimachinery/pkg/util/wait.Until(...)'),
      ),
      goroutine('goroutine 12 [IO wait]:', frame('internal/poll.runtime_pollWait(0x7f, 0x72)')),
      '',
    ].join('\n\n');
    const s = summarizeGoroutineDump(text);
    expect(s.relist).toEqual({ id: 301, state: 'select', waitMinutes: 2, blockedIn: 'PodSandboxStatus' });
    expect(s.criBlocked).toEqual([{ method: 'PodSandboxStatus', count: 1, maxWaitMinutes: 2 }]);
    expect(s.total).toBe(2);
  });

  it('a relist waiting on something that is not the runtime is "other"', () => {
    const text = goroutine(
      'goroutine 9 [sync.Mutex.Lock, 3 minutes]:',
      frame('sync.(*Mutex).Lock(...)'),
      frame('k8s.io/kubernetes/pkg/kubelet/container.(*cache).Set(0xc0001, {0xc0002, 0x24}, 0xc0003, {0x0, 0x0}, {0x1, 0x2, 0x3})'),
      frame('k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist(0xc0004)'),
    );
    expect(summarizeGoroutineDump(text).relist).toEqual({ id: 9, state: 'sync.Mutex.Lock', waitMinutes: 3, blockedIn: 'other' });
  });

  it('a dump without the PLEG goroutine has no relist entry', () => {
    expect(summarizeGoroutineDump(goroutine('goroutine 1 [running]:', frame('main.main()'))).relist).toBeUndefined();
  });

  it('reads headers with extra attributes and elided frames', () => {
    const text = goroutine(
      'goroutine 5 gp=0xc000007 m=nil [select, 7 minutes, locked to thread]:',
      frame('a.b()'),
      '...additional frames elided...',
      'created by c.d in goroutine 1\n\tx.go:2 +0x2',
    );
    expect(parseGoroutineDump(text)).toEqual([{ id: 5, state: 'select', waitMinutes: 7, functions: ['a.b'], createdBy: 'c.d' }]);
  });

  const bad: [string, string, RegExp][] = [
    ['an empty body', '', /no goroutines/],
    ['an HTML page', '<html>profiling disabled</html>', /line 1: not a goroutine dump/],
    ['a function line without its file line', 'goroutine 1 [running]:\nmain.main()\nmain.other()', /line 3: expected a tab-indented file:line/],
    ['a file line without a function', 'goroutine 1 [running]:\n\tmain.go:1', /line 2: a file line without its function line/],
    ['a dump cut short', 'goroutine 1 [running]:\nmain.main()', /ends before the last frame's file line/],
    ['a frame between goroutines', 'goroutine 1 [running]:\nmain.main()\n\tm.go:1\n\nstray.func()\n\tm.go:2', /line 5: a frame outside any goroutine/],
  ];
  it.each(bad)('names the line for %s', (_what, text, message) => {
    expect(() => summarizeGoroutineDump(text)).toThrow(GoroutineDumpError);
    expect(() => summarizeGoroutineDump(text)).toThrow(message);
  });
});
