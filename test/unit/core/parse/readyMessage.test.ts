import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReadyMessage, RULE_WORDS, unquoteGo } from '../../../../src/core/parse/readyMessage';

const kinds = (m: string): string[] => parseReadyMessage(m).errors.map((e) => e.kind);

describe('parseReadyMessage: every Ready form of docs/kubelet-messages.md', () => {
  it.each([
    ['PLEG is not healthy: pleg was last seen active 3m4.612899233s ago; threshold is 3m0s', ['pleg-stale']],
    ['PLEG is not healthy: pleg has yet to be successful', ['pleg-never']],
    ['EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events', ['evented-pleg-full']],
    ['container runtime is down', ['runtime-down']],
    ['container runtime status check may not have completed yet', ['runtime-status-pending']],
    ['container runtime not ready: RuntimeReady=false reason:NotReady message:runtime is shutting down', ['runtime-not-ready']],
    [
      'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
      ['network-not-ready'],
    ],
    ['missing node capacity for resources: ephemeral-storage', ['capacity-missing']],
    ['node is shutting down', ['shutting-down']],
    ['kubelet is posting ready status', []],
    ['Kubelet stopped posting node status.', []],
    ['Kubelet never posted node status.', []],
  ])('%s', (message, expected) => {
    expect(kinds(message)).toEqual(expected);
  });

  it('extracts the durations of R1 verbatim', () => {
    const [e] = parseReadyMessage('PLEG is not healthy: pleg was last seen active 3m4.612899233s ago; threshold is 3m0s').errors;
    expect(e).toMatchObject({ kind: 'pleg-stale', lastSeenAgo: '3m4.612899233s', threshold: '3m0s' });
  });

  it('extracts the event count of R3', () => {
    const [e] = parseReadyMessage('EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events').errors;
    expect(e?.channelEvents).toBe(1000);
  });

  it('R7 and R8 set flags, not errors', () => {
    expect(parseReadyMessage('kubelet is posting ready status').postingReady).toBe(true);
    expect(parseReadyMessage('Kubelet stopped posting node status.').lease).toBe('stopped');
    expect(parseReadyMessage('Kubelet never posted node status.').lease).toBe('never');
    expect(parseReadyMessage('PLEG is not healthy: pleg has yet to be successful').postingReady).toBe(false);
  });
});

describe('parseReadyMessage: joined errors', () => {
  it('aggregate form [a, b] (seen on a real 1.32 kubelet)', () => {
    const p = parseReadyMessage(
      '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]',
    );
    expect(p.errors).toEqual([
      { kind: 'runtime-down', text: 'container runtime is down' },
      {
        kind: 'pleg-stale',
        text: 'PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s',
        lastSeenAgo: '3m3.143817273s',
        threshold: '3m0s',
      },
    ]);
  });

  it('startup aggregate', () => {
    expect(kinds('[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]')).toEqual([
      'runtime-status-pending',
      'pleg-never',
    ]);
  });

  it('old comma join without a space: a,b', () => {
    expect(kinds('container runtime is down,PLEG is not healthy: pleg was last seen active 3m5.30015447s ago; threshold is 3m0s')).toEqual([
      'runtime-down',
      'pleg-stale',
    ]);
  });

  it('a network message keeps its own commas and colons', () => {
    const msg =
      'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized, PLEG is not healthy: pleg has yet to be successful';
    const p = parseReadyMessage(msg);
    expect(p.errors.map((e) => e.kind)).toEqual(['network-not-ready', 'pleg-never']);
    expect(p.errors[0]?.text).toBe(
      'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized',
    );
  });

  it('three errors in brackets, including runtime-not-ready with commas in its message', () => {
    const p = parseReadyMessage(
      '[container runtime not ready: RuntimeReady=false reason:NotReady message:a, b, c, container runtime network not ready: NetworkReady=false reason:X message:y, PLEG is not healthy: pleg has yet to be successful]',
    );
    expect(p.errors.map((e) => e.kind)).toEqual(['runtime-not-ready', 'network-not-ready', 'pleg-never']);
    expect(p.errors[0]?.text).toBe('container runtime not ready: RuntimeReady=false reason:NotReady message:a, b, c');
  });

  it('unknown errors between known ones become `other`, not lost', () => {
    const p = parseReadyMessage('[container runtime is down, some new kubelet error: disk on fire, PLEG is not healthy: pleg has yet to be successful]');
    expect(p.errors).toEqual([
      { kind: 'runtime-down', text: 'container runtime is down' },
      { kind: 'other', text: 'some new kubelet error: disk on fire' },
      { kind: 'pleg-never', text: 'PLEG is not healthy: pleg has yet to be successful' },
    ]);
  });

  it('an entirely unknown message is one `other` error, verbatim', () => {
    expect(parseReadyMessage('Node is being drained by the operator').errors).toEqual([
      { kind: 'other', text: 'Node is being drained by the operator' },
    ]);
  });

  it('empty message: no errors', () => {
    expect(parseReadyMessage('')).toEqual({ errors: [], postingReady: false });
  });
});

describe('parseReadyMessage: unseen real-world variants', () => {
  it.each([
    // pre-1.11 network form had no "container" prefix, joined with a bare comma
    [
      'runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized,PLEG is not healthy: pleg was last seen active 4m9.1s ago; threshold is 3m0s',
      ['network-not-ready', 'pleg-stale'],
    ],
    ['PLEG is not healthy:  pleg  was last seen active 3m46s ago;  threshold is 3m0s', ['pleg-stale']],
    ['  PLEG is not healthy: pleg was last seen active 1h2m3.5s ago; threshold is 3m0s  ', ['pleg-stale']],
    ['[PLEG is not healthy: pleg was last seen active 3m0.195184382s ago; threshold is 3m0s]', ['pleg-stale']],
    ['PLEG is not healthy: pleg was last seen active 2562047h47m16.854775807s ago; threshold is 3m0s', ['pleg-stale']],
    ['PLEG is not healthy: pleg was last seen active 3m0.000001µs ago; threshold is 3m0s', ['pleg-stale']],
    ['PLEG is not healthy: pleg was last seen active 3m500ms ago; threshold is 3m0s', ['pleg-stale']],
    ['container runtime is down, container runtime network not ready: NetworkReady=false', ['runtime-down', 'network-not-ready']],
    // a 10 min threshold (EventedPLEG gate on)
    ['PLEG is not healthy: pleg was last seen active 10m0.5s ago; threshold is 10m0s', ['pleg-stale']],
    // kubelet 1.6-era message with a trailing period
    ['PLEG is not healthy: pleg was last seen active 3m7.437s ago; threshold is 3m0s.', ['pleg-stale']],
  ])('%s', (message, expected) => {
    expect(kinds(message)).toEqual(expected);
  });

  it('keeps the µ, μ and us spellings of the duration', () => {
    for (const unit of ['µs', 'μs', 'us']) {
      const [e] = parseReadyMessage(`PLEG is not healthy: pleg was last seen active 3m0.5s1${unit} ago; threshold is 3m0s`).errors;
      expect(e?.lastSeenAgo).toBe(`3m0.5s1${unit}`);
    }
  });

  it('a Ready suffix such as ". AppArmor enabled" or ". WARNING: …" is not an error', () => {
    for (const m of ['kubelet is posting ready status. AppArmor enabled', 'kubelet is posting ready status. WARNING: CPU hardcapping unsupported']) {
      const p = parseReadyMessage(m);
      expect(p.postingReady).toBe(true);
      expect(p.errors).toEqual([]);
    }
  });

  it('does not take "EventedPLEG is not healthy" for the generic PLEG', () => {
    expect(kinds('EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 999 events')).toEqual(['evented-pleg-full']);
  });
});

describe('unquoteGo', () => {
  it('undoes strconv.Quote escapes', () => {
    expect(unquoteGo(String.raw`a \"b\" c\\d\n\u00b5s\x41`)).toBe('a "b" c\\d\nµsA');
  });
  it('keeps unknown escapes verbatim', () => {
    expect(unquoteGo(String.raw`\q`)).toBe(String.raw`\q`);
  });
});

describe('the words each Ready rule is searched only with (RULE_WORDS)', () => {
  it('every string a rule matches holds one of its words, so skipping the rule without them loses nothing', () => {
    let checked = 0;
    for (const [rule, words] of RULE_WORDS) {
      fc.assert(
        fc.property(fc.stringMatching(rule.regex), (text) => {
          // stringMatching gives strings containing a match: check the match itself.
          const match = rule.regex.exec(text);
          expect(match, `${rule.id} on ${JSON.stringify(text)}`).not.toBeNull();
          expect(words.some((w) => match![0].includes(w)), `${rule.id}: ${JSON.stringify(match![0])} holds none of ${words.join(', ')}`).toBe(true);
          checked++;
        }),
        { numRuns: 200 },
      );
    }
    expect(checked).toBe(RULE_WORDS.size * 200);
  });

  it('covers the eight Ready rules', () => {
    expect([...RULE_WORDS.keys()].map((r) => r.id)).toEqual(['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8']);
  });
});
