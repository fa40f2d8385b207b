// `journalctl -o json` entries (systemd logs-show.c output_json): the MESSAGE is the kubelet's line, the
// realtime stamp (decimal µs) its time unless the line carries the kubelet's own absolute time.
import { describe, expect, it } from 'vitest';
import { readJournalJson } from '../../../../src/core/parse/journalJson';
import { classifyLogLine } from '../../../../src/core/parse/logReaderLine';

const KLOG = 'E1128 04:41:36.491078    6146 kubelet.go:2661] "Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 3m2.974045537s ago; threshold is 3m0s"';
const entry = (fields: Record<string, unknown>): string => JSON.stringify({ __CURSOR: 's=1;i=1', __REALTIME_TIMESTAMP: '1795840896491211', _PID: '6146', _COMM: 'kubelet', SYSLOG_IDENTIFIER: 'kubelet', ...fields });

describe('readJournalJson', () => {
  it('takes MESSAGE, the realtime stamp in µs and the kubelet pid', () => {
    expect(readJournalJson(entry({ MESSAGE: KLOG }))).toEqual({ message: KLOG, epochMs: 1795840896491.211, pid: 6146 });
  });

  it('prefers _SOURCE_REALTIME_TIMESTAMP, as journalctl does for its short formats', () => {
    expect(readJournalJson(entry({ MESSAGE: 'x', _SOURCE_REALTIME_TIMESTAMP: '1795840896400000' }))?.epochMs).toBe(1795840896400);
  });

  it('decodes a MESSAGE written as a byte array (not printable UTF-8) and takes the first of repeated values', () => {
    const bytes = [...new TextEncoder().encode('PLEG is not healthy\u001b[0m')];
    expect(readJournalJson(entry({ MESSAGE: bytes }))?.message).toBe('PLEG is not healthy\u001b[0m');
    expect(readJournalJson(entry({ MESSAGE: ['first', 'second'] }))?.message).toBe('first');
  });

  it('no entry: a null MESSAGE (over 4096 bytes without --all), no MESSAGE, a kubelet JSON line, broken JSON', () => {
    expect(readJournalJson(entry({ MESSAGE: null }))).toBeUndefined();
    expect(readJournalJson(entry({}))).toBeUndefined();
    expect(readJournalJson('{"ts":1795840896491.0784,"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization"}')).toBeUndefined();
    expect(readJournalJson('{"__REALTIME_TIMESTAMP":"1",')).toBeUndefined();
  });

  it('the pid only of a kubelet entry; a stamp that is not decimal µs is no time', () => {
    expect(readJournalJson(entry({ MESSAGE: 'x', SYSLOG_IDENTIFIER: 'containerd', _COMM: 'containerd' }))?.pid).toBeUndefined();
    expect(readJournalJson(entry({ MESSAGE: 'x', __REALTIME_TIMESTAMP: '1.5e15' }))?.epochMs).toBeUndefined();
  });
});

describe('classifyLogLine on journal JSON entries', () => {
  it('a klog text MESSAGE is timed by the entry (the klog header has no year) and keeps its own pid', () => {
    const facts = classifyLogLine(entry({ MESSAGE: KLOG, _PID: '1' }));
    expect(facts?.time).toEqual({ epochMs: 1795840896491.211 });
    expect(facts?.clock).toBe('04:41:36');
    expect(facts?.pid).toBe(6146);
    expect(facts?.events[0]).toMatchObject({ kind: 'skip-sync' });
    expect(facts?.events[1]).toMatchObject({ kind: 'pleg-unhealthy', lastSeenAgoSeconds: 182.974045537 });
  });

  it('a kubelet JSON MESSAGE is timed by its own ts (epoch ms)', () => {
    const json = '{"ts":1795840896491.0784,"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization","err":"PLEG is not healthy: pleg was last seen active 3m2.974045537s ago; threshold is 3m0s"}';
    expect(classifyLogLine(entry({ MESSAGE: json }))?.time).toEqual({ epochMs: 1795840896491.0784 });
  });
});
