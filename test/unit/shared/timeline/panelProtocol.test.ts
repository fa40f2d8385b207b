import { describe, expect, it } from 'vitest';
import { checkWhatIfParams, describeParamProblem } from '../../../../src/core/timeline/whatIf/whatIfParams';
import { englishText } from '../../../../src/core/tree/localize';
import { DEFAULT_WHAT_IF } from '../../../../src/core/timeline/whatIf/whatIfTimeline';
import { describeMessageProblem, webviewStrings } from '../../../../src/host/timeline/timelineStrings';
import { parseWebviewMessage, PROTOCOL_VERSION } from '../../../../src/shared/timeline/panelProtocol';

describe('panel protocol: everything the webview sends is checked', () => {
  it('accepts the three well-formed messages', () => {
    expect(parseWebviewMessage({ type: 'ready', protocolVersion: PROTOCOL_VERSION })).toEqual({ ok: true, message: { type: 'ready', protocolVersion: PROTOCOL_VERSION } });
    expect(parseWebviewMessage({ type: 'simulate', requestId: 3, params: DEFAULT_WHAT_IF })).toEqual({ ok: true, message: { type: 'simulate', requestId: 3, params: DEFAULT_WHAT_IF } });
    expect(parseWebviewMessage({ type: 'cancel', requestId: 3 })).toEqual({ ok: true, message: { type: 'cancel', requestId: 3 } });
  });

  it('accepts pause, resume and export with a request id, and only JSON or CSV exports', () => {
    expect(parseWebviewMessage({ type: 'pause', requestId: 4 })).toEqual({ ok: true, message: { type: 'pause', requestId: 4 } });
    expect(parseWebviewMessage({ type: 'resume', requestId: 5 })).toEqual({ ok: true, message: { type: 'resume', requestId: 5 } });
    expect(parseWebviewMessage({ type: 'export', requestId: 6, format: 'csv' })).toEqual({ ok: true, message: { type: 'export', requestId: 6, format: 'csv' } });
    expect(parseWebviewMessage({ type: 'export', requestId: 6, format: 'json' })).toEqual({ ok: true, message: { type: 'export', requestId: 6, format: 'json' } });
    const problem = (v: unknown): unknown => {
      const p = parseWebviewMessage(v);
      return p.ok ? undefined : p;
    };
    expect(problem({ type: 'export', requestId: 6, format: '../../etc/passwd' })).toEqual({ ok: false, requestId: 6, problem: { kind: 'badField', field: 'format', expected: '"json" or "csv"' } });
    expect(problem({ type: 'export', requestId: 6, format: 'json', path: '/tmp/x' })).toEqual({ ok: false, requestId: 6, problem: { kind: 'unknownField', field: 'path' } });
    expect(problem({ type: 'export', format: 'json' })).toEqual({ ok: false, requestId: null, problem: { kind: 'badField', field: 'requestId', expected: 'a positive integer' } });
    expect(problem({ type: 'pause', requestId: 0 })).toEqual({ ok: false, requestId: null, problem: { kind: 'badField', field: 'requestId', expected: 'a positive integer' } });
    expect(problem({ type: 'resume', requestId: 2, node: 'x' })).toEqual({ ok: false, requestId: 2, problem: { kind: 'unknownField', field: 'node' } });
    // The webview cannot push data to the host: a session or delta from it is an unknown message.
    expect(problem({ type: 'sessionDelta', delta: {} })).toEqual({ ok: false, requestId: null, problem: { kind: 'unknownType', type: 'sessionDelta' } });
  });

  it('an out-of-range knob is refused with the field, the limits and the request it belongs to', () => {
    const parsed = parseWebviewMessage({ type: 'simulate', requestId: 7, params: { ...DEFAULT_WHAT_IF, pods: 5000 } });
    expect(parsed).toEqual({ ok: false, requestId: 7, problem: { kind: 'params', problem: { kind: 'outOfRange', field: 'pods', value: 5000, min: 0, max: 1000 } } });
  });

  it('refuses malformed messages and says why', () => {
    const problem = (v: unknown): unknown => {
      const p = parseWebviewMessage(v);
      return p.ok ? undefined : p.problem;
    };
    expect(problem(null)).toEqual({ kind: 'notAnObject' });
    expect(problem([1])).toEqual({ kind: 'notAnObject' });
    expect(problem({ type: 'exec', command: 'rm -rf /' })).toEqual({ kind: 'unknownType', type: 'exec' });
    expect(problem({ type: 'ready' })).toEqual({ kind: 'badField', field: 'protocolVersion', expected: 'a number' });
    expect(problem({ type: 'ready', protocolVersion: PROTOCOL_VERSION + 1 })).toEqual({ kind: 'protocolVersion', got: PROTOCOL_VERSION + 1, want: PROTOCOL_VERSION });
    expect(problem({ type: 'simulate', requestId: 'x', params: DEFAULT_WHAT_IF })).toEqual({ kind: 'badField', field: 'requestId', expected: 'a positive integer' });
    expect(problem({ type: 'simulate', requestId: 1.5, params: DEFAULT_WHAT_IF })).toEqual({ kind: 'badField', field: 'requestId', expected: 'a positive integer' });
    expect(problem({ type: 'cancel', requestId: 1, extra: true })).toEqual({ kind: 'unknownField', field: 'extra' });
    expect(problem({ type: 'simulate', requestId: 1, params: { ...DEFAULT_WHAT_IF, pods: Number.NaN } })).toEqual({ kind: 'params', problem: { kind: 'notANumber', field: 'pods' } });
    expect(problem({ type: 'simulate', requestId: 1, params: { ...DEFAULT_WHAT_IF, kubelet: '1.99' } })).toEqual({ kind: 'params', problem: { kind: 'badKubelet', value: '1.99' } });
    expect(problem({ type: 'simulate', requestId: 1, params: { ...DEFAULT_WHAT_IF, script: 'x' } })).toEqual({ kind: 'params', problem: { kind: 'unknownField', field: 'script' } });
  });

  it('every limit is inclusive and names its field in English for logs', () => {
    expect(checkWhatIfParams({ ...DEFAULT_WHAT_IF, pods: 1000, durationS: 1 }).ok).toBe(true);
    const bad = checkWhatIfParams({ ...DEFAULT_WHAT_IF, durationS: 0 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(describeParamProblem(bad.problem)).toBe('durationS must be between 1 and 86400 (got 0)');
  });
});

describe('what the panel shows for a refused message', () => {
  it('names the knob by its label and gives the limits', () => {
    const parsed = parseWebviewMessage({ type: 'simulate', requestId: 2, params: { ...DEFAULT_WHAT_IF, rpcLatencyMs: -1 } });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(describeMessageProblem(englishText, parsed.problem)).toBe('CRI call latency (ms) must be between 0 and 600000');
    expect(describeMessageProblem(englishText, { kind: 'unknownType', type: 'exec' })).toBe('The panel sent a message of unknown type exec.');
  });

  it('gives the webview a label for every knob and every chart element', () => {
    const strings = webviewStrings(englishText);
    for (const key of ['pods', 'containersPerPod', 'rpcLatencyMs', 'changedPodsPerRelist', 'freezeAtS', 'freezeForS', 'durationS', 'kubelet']) expect(strings[`param.${key}`]).toBeTruthy();
    for (const key of ['series.health', 'series.threshold', 'series.duration', 'series.failed', 'series.unfinished', 'band.unhealthy', 'band.notReady']) expect(strings[key]).toBeTruthy();
    // The session pane: every lane, marker and control has a label.
    for (const key of ['lane.health', 'lane.predicted', 'lane.ready', 'lane.otherPods', 'marker.discards', 'marker.rpcErrors', 'series.kubeletAge', 'series.kubeletDuration', 'band.predicted', 'band.readyFalse', 'event.started', 'event.died', 'event.removed', 'event.changed', 'pause', 'resume', 'exportJson', 'exportCsv', 'mode.replay', 'mode.live', 'tab.timeline', 'tab.whatIf']) expect(strings[key], key).toBeTruthy();
  });
});
