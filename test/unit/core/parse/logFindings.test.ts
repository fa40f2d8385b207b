import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findingForLine, findLogFindings, viewLine } from '../../../../src/core/parse/logFindings';

const REAL_LOG = readFileSync(new URL('../../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url), 'utf8');

describe('viewLine', () => {
  it('strips syslog and klog prefixes and keeps the column offset', () => {
    const body = '"Skipping pod synchronization" err="container runtime is down"';
    const raw = `Nov 22 03:03:46 node-a kubelet[31657]: E1122 03:03:46.572920   31657 kubelet.go:2273] ${body}`;
    const v = viewLine(raw);
    expect(v).toEqual({ body, offset: raw.indexOf(body), severity: 'E' });
  });
  it('strips a journalctl short-iso prefix', () => {
    expect(viewLine('2026-11-22T03:03:46+0000 node-a kubelet[1]: hello').body).toBe('hello');
  });
  it('unpacks JSON log lines (msg + err)', () => {
    const v = viewLine('{"ts":1732244626572.9,"caller":"kubelet/kubelet.go:2273","msg":"Skipping pod synchronization","err":"container runtime is down"}');
    expect(v.body).toBe('"Skipping pod synchronization" err="container runtime is down"');
    expect(v.offset).toBe(-1);
  });
  it('strips the reader\'s other prefixes: short-precise, short-unix, CRI', () => {
    const body = '"Skipping pod synchronization" err="container runtime is down"';
    const klog = `E1128 04:39:05.166350    6146 kubelet.go:2661] ${body}`;
    for (const prefix of ['Nov 28 04:39:05.166401 k136-node kubelet[6146]: ', '1795840745.166401 k136-node kubelet[6146]: ', '2026-11-28T04:39:05.166401123Z stderr F ']) {
      const raw = `${prefix}${klog}`;
      expect(viewLine(raw), prefix).toEqual({ body, offset: raw.indexOf(body), severity: 'E' });
    }
  });
  it('unpacks a journalctl -o json entry: its MESSAGE, no column mapping', () => {
    const json = '{"ts":1795840745166.3503,"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization","err":"container runtime is down"}';
    const v = viewLine(JSON.stringify({ __REALTIME_TIMESTAMP: '1795840745166401', _PID: '6146', SYSLOG_IDENTIFIER: 'kubelet', MESSAGE: json }));
    expect(v).toEqual({ body: '"Skipping pod synchronization" err="container runtime is down"', offset: -1, severity: 'E' });
  });
  it('passes unknown lines through', () => {
    expect(viewLine('just text')).toEqual({ body: 'just text', offset: 0 });
  });
});

describe('findingForLine', () => {
  it('R1 inside a structured skip line: error with the figures, hover explains them', () => {
    const raw =
      'E1122 03:03:46.572920   31657 kubelet.go:2273] "Skipping pod synchronization" err="[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]"';
    const f = findingForLine(raw, 7);
    expect(f).toMatchObject({
      line: 7,
      rule: 'L1',
      severity: 'error',
      message: 'Pod synchronization skipped: container runtime is down; PLEG not healthy (last relist 3m3.143817273s ago, threshold 3m0s)',
    });
    expect(raw.slice(f?.start, f?.end).startsWith('Skipping pod synchronization')).toBe(true);
    expect(f?.explanation).toContain('183.1 s');
    expect(f?.explanation).toContain('3.1 s over');
  });

  it('the startup skip is only a warning', () => {
    const f = findingForLine(
      'E1122 02:59:17.259543   31657 kubelet.go:2273] "Skipping pod synchronization" err="[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]"',
      0,
    );
    expect(f).toMatchObject({ rule: 'L1', severity: 'warning' });
  });

  it('glog list form (≤1.13) and klog text form (1.17)', () => {
    expect(
      findingForLine('I0301 15:52:28.477667    3031 kubelet.go:1775] skipping pod synchronization - [PLEG is not healthy: pleg was last seen active 3m5.30015447s ago; threshold is 3m0s]', 0)
        ?.message,
    ).toBe('Pod synchronization skipped: PLEG not healthy (last relist 3m5.30015447s ago, threshold 3m0s)');
    expect(
      findingForLine('E0301 15:52:28.477667    3031 kubelet.go:1862] skipping pod synchronization - PLEG is not healthy: pleg was last seen active 3m0.1s ago; threshold is 3m0s', 0)
        ?.rule,
    ).toBe('L1');
  });

  it('the max-duration form is explained as never', () => {
    const f = findingForLine('skipping pod synchronization - [PLEG is not healthy: pleg was last seen active 2562047h47m16.854775807s ago; threshold is 3m0s]', 0);
    expect(f?.explanation).toContain('never');
  });

  it.each([
    ['E1122 03:02:44.431380   31657 generic.go:256] "GenericPLEG: Unable to retrieve pods" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"', 'L2', 'error'],
    ['E0301 1 kubelet.go:1] "Event channel is full, discard this relist() cycle event"', 'L5', 'warning'],
    ['I0301 15:52:28.477667    3031 kubelet_node_status.go:1] "Node became not ready" node="n1" condition={"type":"Ready","status":"False","reason":"KubeletNotReady","message":"PLEG is not healthy: pleg has yet to be successful"}', 'L6', 'error'],
    ['E1122 03:10:00.000000   31657 server.go:1] "healthz check syncloop failed: sync Loop took longer than expected"', 'L9', 'error'],
    ['E1122 03:10:00.000000   31657 kubelet.go:1] "Container runtime sanity check failed" err="rpc error: code = DeadlineExceeded"', 'L12', 'error'],
    ['"Fall back to Generic PLEG relisting since Evented PLEG is not working"', 'L10', 'warning'],
    ['E0101 00:00:00.000000 1 generic.go:1] "PLEG: Write status" err="x" pod="default/nginx"', 'L4', 'warning'],
    ['PLEG: Ignoring events for pod nginx/default: rpc error', 'L3', 'warning'],
    ['"PLEG: pod failed reinspection"', 'L11', 'warning'],
    ['"Do not notify watchdog this iteration as the kubelet is reportedly not healthy" err="checker syncloop failed"', 'L13', 'information'],
    ['Kubelet stopped posting node status.', 'R8', 'warning'],
    ['Node worker-1 status is now: NodeNotReady', 'E1', 'information'],
    ['Recording NodeNotReady event message for node worker-1', 'L7', 'information'],
    ['Nov 22 03:00:00 n1 dockerd[1]: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?', 'X1', 'error'],
    ['[123.4] INFO: task containerd-shim:4242 blocked for more than 120 seconds.', 'X3', 'error'],
    ['nfs: server nas01 not responding, still trying', 'X4', 'error'],
    ['level=error msg="get state for abc" error="context deadline exceeded"', 'X2', 'warning'],
    ['I1122 03:00:00.000000 1 kubelet.go:1] "SyncLoop (PLEG): event for pod" pod="default/nginx" event={"ID":"x"}', 'L8', 'hint'],
    ['PLEG is not healthy: pleg was last seen active 3m4s ago; threshold is 3m0s', 'R1', 'error'],
    ['EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events', 'R3', 'error'],
  ])('%s → %s %s', (raw, rule, severity) => {
    expect(findingForLine(raw, 0)).toMatchObject({ rule, severity });
  });

  it('lines without PLEG relevance have no finding', () => {
    expect(findingForLine('I1122 02:59:00.000000 1 kubelet.go:1] "Started kubelet"', 0)).toBeUndefined();
    expect(findingForLine('', 0)).toBeUndefined();
  });
});

describe('findLogFindings on a real kubelet 1.32 log (containerd frozen for 300 s)', () => {
  const findings = findLogFindings(REAL_LOG);
  const lines = REAL_LOG.split('\n');

  it('flags every "PLEG is not healthy" line as an L1 error with the figures', () => {
    const plegLines = lines.flatMap((l, i) => (l.includes('pleg was last seen active') ? [i] : []));
    expect(plegLines.length).toBeGreaterThan(5);
    for (const i of plegLines) {
      const f = findings.find((x) => x.line === i);
      expect(f?.rule).toBe('L1');
      expect(f?.severity).toBe('error');
      expect(f?.message).toMatch(/PLEG not healthy \(last relist \d+m\d+\.\d+s ago, threshold 3m0s\)/u);
    }
  });

  it('flags the failed relists (L2) and the first startup skip as a warning', () => {
    const l2 = findings.filter((f) => f.rule === 'L2');
    expect(l2.length).toBeGreaterThanOrEqual(2);
    expect(l2[0]?.message).toContain('DeadlineExceeded');
    const firstSkip = findings.find((f) => f.rule === 'L1');
    expect(firstSkip?.severity).toBe('warning');
  });

  it('columns point into the right line', () => {
    for (const f of findings.slice(0, 200)) {
      const line = lines[f.line] ?? '';
      expect(f.end).toBeLessThanOrEqual(line.length);
      expect(f.start).toBeLessThan(f.end);
    }
  });
});

describe('JSON log lines (--logging-format=json)', () => {
  it('runs the patterns on msg and err; the range covers the whole line', () => {
    const raw =
      '{"ts":1732244626572.9,"caller":"kubelet/kubelet.go:2273","msg":"Skipping pod synchronization","err":"[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]"}';
    const f = findingForLine(raw, 3);
    expect(f).toMatchObject({ line: 3, rule: 'L1', severity: 'error', start: 0, end: raw.length });
    expect(f?.message).toContain('PLEG not healthy (last relist 3m3.143817273s ago, threshold 3m0s)');
  });
  it('a JSON line whose err needs escaping', () => {
    const raw = JSON.stringify({ msg: 'GenericPLEG: Unable to retrieve pods', err: 'rpc error: code = Unavailable desc = "connection refused"' });
    expect(findingForLine(raw, 0)?.message).toBe('Relist could not list pods from the runtime: rpc error: code = Unavailable desc = "connection refused"');
  });
});

describe('"Node became not ready" (L6) condition forms', () => {
  it('Go struct form (≤1.20): Message is the last field, the closing brace is not an error', () => {
    const f = findingForLine(
      'I0301 15:52:28.477667    3031 kubelet_node_status.go:1] Node became not ready: {Type:Ready Status:False LastHeartbeatTime:2019-03-01 15:52:28.4776 +0000 UTC m=+1.1 LastTransitionTime:2019-03-01 15:52:28.4776 +0000 UTC m=+1.1 Reason:KubeletNotReady Message:PLEG is not healthy: pleg was last seen active 3m4.6s ago; threshold is 3m0s}',
      0,
    );
    expect(f?.message).toBe('Node became not ready: PLEG not healthy (last relist 3m4.6s ago, threshold 3m0s)');
    expect(f?.explanation).toContain('4.6 s over');
  });
  it('JSON condition form (1.21+)', () => {
    const f = findingForLine(
      'I1122 02:41:07.000000    3031 setters.go:1] "Node became not ready" node="n1" condition={"type":"Ready","status":"False","reason":"KubeletNotReady","message":"[container runtime is down, PLEG is not healthy: pleg has yet to be successful]"}',
      0,
    );
    expect(f?.message).toBe('Node became not ready: container runtime is down; PLEG has not relisted successfully yet');
  });
});
