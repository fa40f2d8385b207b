import { describe, expect, it } from 'vitest';
import {
  ALL_RULES, DUR_SOURCE, E1, E2, KLOG, L1, L10, L11, L12, L13, L2, L3, L4, L5, L6, L7, L8, L9, R1, R2, R3, R4, R5, R6, R7, R8, SYSL,
  X1, X2, X3, X4, globalRegex,
} from '../../../../src/core/parse/messageCatalog';
import type { CatalogRule } from '../../../../src/core/parse/messageCatalog';

const DUR = new RegExp(`^${DUR_SOURCE}$`, 'u');

describe('DUR', () => {
  it.each(['3m46.752815514s', '3m0s', '0s', '250ms', '1.1µs', '1.1μs', '1.1us', '12ns', '2562047h47m16.854775807s', '1h0m0s'])(
    'matches %s',
    (d) => expect(DUR.test(d)).toBe(true),
  );
  it.each(['', '3', 'm', '3x', '3m 0s', '.5s', '-'])('rejects %j', (d) => expect(DUR.test(d)).toBe(false));
});

describe('catalog structure', () => {
  it('has every id of the guide exactly once', () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      'R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'E1', 'E2',
      'L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7', 'L8', 'L9', 'L10', 'L11', 'L12', 'L13',
      'X1', 'X2', 'X3', 'X4',
    ]);
  });
  it('compiles non-global regexes (exec has no lastIndex state) and offers a global copy', () => {
    for (const r of ALL_RULES) expect(r.regex.global).toBe(false);
    expect([...'R2 PLEG is not healthy: pleg has yet to be successful; PLEG is not healthy: pleg has yet to be successful'.matchAll(globalRegex(R2))]).toHaveLength(2);
  });
});

const cases: [CatalogRule, string[], string[]][] = [
  [R1, ['PLEG is not healthy: pleg was last seen active 3m4.612899233s ago; threshold is 3m0s'], ['PLEG is not healthy: pleg has yet to be successful']],
  [R2, ['PLEG is not healthy: pleg has yet to be successful'], ['PLEG is not healthy: pleg was last seen active 3m4s ago; threshold is 3m0s']],
  [R3, ['EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events'], ['PLEG is not healthy: pleg has yet to be successful']],
  [R4, ['container runtime is down', 'container runtime status check may not have completed yet'], ['container runtime not ready: RuntimeReady=false']],
  [
    R5,
    [
      'container runtime not ready: RuntimeReady=false reason:… message:…',
      'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:…',
      'runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized',
    ],
    ['container runtime is down', '"Container runtime network not ready" networkReady="NetworkReady=false"'],
  ],
  [R6, ['missing node capacity for resources: ephemeral-storage', 'node is shutting down'], ['node is shutting']],
  [R7, ['kubelet is posting ready status', 'kubelet is posting ready status. AppArmor enabled'], ['kubelet is not posting']],
  [R8, ['Kubelet stopped posting node status.', 'Kubelet never posted node status.'], ['Kubelet stopped posting node status']],
  [E1, ['Node worker-1 status is now: NodeNotReady', 'Node worker-1 status is now: NodeReady'], ['Node worker-1 status is now: NodeHasSufficientMemory']],
  [E2, ['Node is not ready'], ['Node is not ready yet', 'The Node is not ready']],
  [
    L1,
    [
      'skipping pod synchronization - [PLEG is not healthy: pleg was last seen active 3m4s ago; threshold is 3m0s]',
      'skipping pod synchronization - PLEG is not healthy: pleg was last seen active 3m4s ago; threshold is 3m0s',
      '"Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 3m0.195184382s ago; threshold is 3m0s"',
    ],
    ['Skipping pod synchronization because'],
  ],
  [L2, ['"GenericPLEG: Unable to retrieve pods" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"'], ['GenericPLEG: retrieved pods']],
  [L3, ['PLEG: Ignoring events for pod nginx/default: rpc error', '"PLEG: Ignoring events for pod" err="x" pod="default/nginx"'], []],
  [L4, ['"PLEG: Write status" err="x" pod="default/nginx"', 'PLEG: Write status for nginx/default: &{…}'], []],
  [L5, ['event channel is full, discard this relist() cycle event', '"Event channel is full, discard this relist() cycle event"'], ['event channel is full']],
  [L6, ['"Node became not ready" node="worker-1" condition={"type":"Ready"}'], []],
  [L7, ['Recording NodeNotReady event message for node worker-1', '"Recording event message for node" node="worker-1" event="NodeNotReady"'], []],
  [L8, ['"SyncLoop (PLEG): event for pod" pod="default/nginx" event={…}'], ['SyncLoop (housekeeping)']],
  [L9, ['Sync Loop took longer than expected.', 'healthz check syncloop failed: sync Loop took longer than expected'], []],
  [
    L10,
    ['"Evented PLEG: Event channel is full, discarded pod lifecycle event"', '"Fall back to Generic PLEG relisting since Evented PLEG is not working"'],
    ['EventedPLEG is not healthy'],
  ],
  [L11, ['PLEG: pod nginx/default failed reinspection: rpc error', '"PLEG: pod failed reinspection"'], []],
  [
    L12,
    ['"Container runtime sanity check failed" err="x"', '"Container runtime not ready" runtimeReady="RuntimeReady=false"', '"Container runtime network not ready" networkReady="x"'],
    ['container runtime is down'],
  ],
  [
    L13,
    [
      '"Do not notify watchdog this iteration as the kubelet is reportedly not healthy" err="checker syncloop failed"',
      '"Starting systemd watchdog with interval" interval="10s"',
      '"Systemd watchdog is not enabled"',
    ],
    [],
  ],
  [X1, ['Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?'], []],
  [X2, ['level=error msg="get state for 0a1b" error="context deadline exceeded: unknown"'], ['get state ok']],
  [X3, ['INFO: task runc:[2:INIT]:12345 blocked for more than 120 seconds.'], []],
  [X4, ['nfs: server 10.0.0.5 not responding, still trying'], ['nfs: server 10.0.0.5 OK']],
];

describe.each(cases)('$id', (rule, positives, negatives) => {
  it.each(positives)('matches %s', (text) => expect(rule.regex.test(text)).toBe(true));
  if (negatives.length > 0) it.each(negatives)('does not match %s', (text) => expect(rule.regex.test(text)).toBe(false));
});

describe('named groups', () => {
  it('R1 ago/thr', () => {
    expect(R1.regex.exec('x PLEG is not healthy: pleg was last seen active 3m46.752815514s ago; threshold is 3m0s')?.groups).toMatchObject({
      ago: '3m46.752815514s',
      thr: '3m0s',
    });
  });
  it('R4 down/pending, R5 net, R6 capacity/shutdown, R8 lease', () => {
    expect(R4.regex.exec('container runtime is down')?.groups?.['down']).toBe('is down');
    expect(R4.regex.exec('container runtime status check may not have completed yet')?.groups?.['pending']).toBeDefined();
    expect(R5.regex.exec('container runtime network not ready: x')?.groups?.['net']).toBe('network ');
    expect(R5.regex.exec('container runtime not ready: x')?.groups?.['net']).toBeUndefined();
    expect(R6.regex.exec('node is shutting down')?.groups?.['shutdown']).toBeDefined();
    expect(R8.regex.exec('Kubelet never posted node status.')?.groups?.['lease']).toBe('never posted');
  });
  it('L1 list and structured forms', () => {
    expect(L1.regex.exec('skipping pod synchronization - [container runtime is down, PLEG is not healthy: pleg has yet to be successful]')?.groups?.['e1']).toBe(
      'container runtime is down, PLEG is not healthy: pleg has yet to be successful',
    );
    expect(L1.regex.exec('"Skipping pod synchronization" err="[container runtime is down]"')?.groups?.['e2']).toBe('[container runtime is down]');
    expect(L1.regex.exec(String.raw`"Skipping pod synchronization" err="a \"quoted\" b"`)?.groups?.['e2']).toBe(String.raw`a \"quoted\" b`);
  });
  it('E1, X1, X3, X4', () => {
    expect(E1.regex.exec('Node worker-1 status is now: NodeNotReady')?.groups).toMatchObject({ node: 'worker-1', st: 'NodeNotReady' });
    expect(X1.regex.exec('Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?')?.groups?.['sock']).toBe(
      'unix:///var/run/docker.sock',
    );
    expect(X3.regex.exec('task runc:[2:INIT]:12345 blocked for more than 120 seconds.')?.groups).toMatchObject({ comm: 'runc:[2:INIT]', pid: '12345', secs: '120' });
    expect(X4.regex.exec('nfs: server nas01 not responding, still trying')?.groups?.['srv']).toBe('nas01');
  });
});

describe('KLOG and SYSL', () => {
  const line = 'E1122 03:03:46.572920   31657 kubelet.go:2273] "Skipping pod synchronization" err="container runtime is down"';
  it('parses a real klog header', () => {
    expect(KLOG.exec(line)?.groups).toMatchObject({ sev: 'E', mmdd: '1122', hms: '03:03:46.572920', pid: '31657', src: 'kubelet.go:2273' });
    expect(KLOG.exec(line)?.groups?.['body']).toBe('"Skipping pod synchronization" err="container runtime is down"');
  });
  it('strips a syslog prefix', () => {
    const m = SYSL.exec(`Nov 22 03:03:46 ip-10-0-1-17 kubelet[31657]: ${line}`);
    expect(m?.groups?.['host']).toBe('ip-10-0-1-17');
    expect(m?.groups?.['rest']).toBe(line);
    expect(SYSL.exec(`Nov  2 03:03:46 node kubelet: ${line}`)?.groups?.['rest']).toBe(line);
  });
  it('does not take other units for the kubelet', () => {
    expect(SYSL.test('Nov 22 03:03:46 node containerd[1]: x')).toBe(false);
  });
});
