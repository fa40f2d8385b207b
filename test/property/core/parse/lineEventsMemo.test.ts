// The memo of body events (lineEventsMemo.ts) answers a body from the template of another body of the
// same shape (the same text but for which ASCII digits stand where). Property: on klog lines whose bodies
// are built from every tracked message, with numbers, repeated values, quotes, backslashes and free text,
// the facts of a line classified after a digit variant filled the memo are the facts of the same line
// classified with an empty memo. A run that never answered from a template would prove nothing, so the
// hits are counted.
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import { clearLineEventsMemo, lineEventsMemoHits } from '../../../../src/core/parse/lineEventsMemo';
import { classifyLogLine } from '../../../../src/core/parse/logReaderLine';

const n = fc.stringMatching(/^[0-9]{1,4}$/u);
const duration = fc.tuple(n, n, fc.stringMatching(/^[0-9]{0,9}$/u)).map(([m, s, f]) => `${m}m${s}${f === '' ? '' : `.${f}`}s`);
const pleg = fc.tuple(duration, duration).map(([ago, thr]) => `PLEG is not healthy: pleg was last seen active ${ago} ago; threshold is ${thr}`);
const reason = fc.oneof(pleg, fc.constantFrom('container runtime is down', 'container runtime status check may not have completed yet', 'PLEG is not healthy: pleg has yet to be successful'), n.map((x) => `runtime network not ready: NetworkReady=false ${x}`));
const reasons = fc.array(reason, { minLength: 1, maxLength: 3 }).map((rs) => (rs.length === 1 ? rs[0] as string : `[${rs.join(', ')}]`));
const rpcErr = fc.tuple(n, n).map(([a, b]) => `rpc error: code = DeadlineExceeded desc = dial unix /run/containerd/containerd.sock: ${a}.${b}ms timeout`);
const free = fc.string({ maxLength: 12 });
/** Values where a digit variant may collide with another field's (the same value twice makes its place uncertain). */
const value = fc.oneof(n, duration, rpcErr, free, fc.constantFrom('a\\"b', 'x\\u0041y', '3m0s'));

const body = fc.oneof(
  fc.tuple(reasons, value).map(([r, v]) => `"Skipping pod synchronization" err="${r}" extra="${v}"`),
  reasons.map((r) => `"Skipping pod synchronization" err="${r}"`),
  reasons.map((r) => `Skipping pod synchronization - ${r}`),
  fc.tuple(rpcErr, value).map(([e, v]) => `"GenericPLEG: Unable to retrieve pods" err="${e}" n=${v}`),
  rpcErr.map((e) => `GenericPLEG: Unable to retrieve pods: ${e}`),
  fc.tuple(rpcErr, n).map(([e, x]) => `"Container runtime sanity check failed" err="${e}" attempt=${x}`),
  fc.tuple(duration, duration).map(([a, b]) => `"Housekeeping took longer than expected" err="housekeeping took too long" expected="${a}" actual="${b}"`),
  fc.tuple(n, n, n).map(([a, b, c]) => `"Kubelet version" kubeletVersion="v${a}.${b}.${c}"`),
  fc.tuple(n, n).map(([a, b]) => `Version: v1.${a}.${b}`),
  fc.tuple(pleg, n).map(([p, x]) => `"Node became not ready" node="node-${x}" condition={"type":"Ready","status":"False","reason":"KubeletNotReady","message":"${p}"}`),
  fc.tuple(n, n).map(([a, b]) => `"Recording event message for node" node="node-${a}" event="NodeNotReady" at=${b}`),
  fc.tuple(n, n).map(([a, b]) => `"Event occurred" object="node-${a}" kind="Node" reason="NodeReady" message="Node node-${a} status is now: NodeReady ${b}"`),
  fc.tuple(n, value).map(([a, v]) => `"Evented PLEG: Failed to get container events, retrying" err="stream ${a} closed" v=${v}`),
  n.map((a) => `"Fall back to Generic PLEG relisting since Evented PLEG is not working" n=${a}`),
  fc.tuple(n, n).map(([a, b]) => `Event channel is full, discarded pod lifecycle event ${a}/${b}`),
  fc.tuple(pleg, pleg).map(([a, b]) => `"Skipping pod synchronization" err="${a}" also="${b}"`),
  fc.tuple(free, n).map(([f, x]) => `"PLEG is not healthy${f}" v=${x}`),
  // The err's shape twice in the body: which of the two places it came from is not certain.
  fc.tuple(rpcErr, fc.nat()).map(([e, seed]) => `"GenericPLEG: Unable to retrieve pods" before="${otherDigits(e, seed)}" err="${e}"`),
  // A Go escape spells the err's last character with digits; its decoded text also stands raw in another field.
  fc.tuple(n, fc.constantFrom('0041', '0042', '0061')).map(([x, hex]) => `"GenericPLEG: Unable to retrieve pods" note="code ${x}${String.fromCharCode(parseInt(hex, 16))}" err="code ${x}\\u${hex}"`),
);

const header = fc.tuple(n, fc.constantFrom('', 'Nov 23 03:05:45.360458 pleg-node kubelet[31657]: ')).map(([pid, prefix]) => `${prefix}E1122 03:05:45.360458   ${pid} kubelet.go:2273] `);

/** The same text with every ASCII digit replaced by some digit, as a later line of the same message would have it. */
function otherDigits(text: string, seed: number): string {
  let s = seed;
  return text.replace(/[0-9]/gu, () => String((s = (s * 7 + 3) % 10)));
}

describe('lineEventsMemo', () => {
  const hitsBefore = lineEventsMemoHits();
  test.prop([header, body, fc.nat()], { numRuns: 1500 })('a line answered from a digit variant’s template has the facts it has when worked out afresh', (h, b, seed) => {
    const first = h + b;
    const later = h + otherDigits(b, seed);
    clearLineEventsMemo();
    const fresh = classifyLogLine(later);
    clearLineEventsMemo();
    classifyLogLine(first);
    expect(classifyLogLine(later)).toEqual(fresh);
  });
  afterAll(() => {
    // Most generated bodies have a certain template; a memo that never answered would make the test vacuous.
    expect(lineEventsMemoHits() - hitsBefore).toBeGreaterThan(500);
  });
});
