// The kubelet-log language contribution: first-line detection and the TextMate grammar's patterns, run
// with JavaScript regular expressions (the patterns use only syntax JavaScript and Oniguruma share).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  contributes: { languages: Array<{ id: string; firstLine?: string; filenamePatterns?: string[] }>; grammars?: Array<{ language: string; path: string; scopeName: string }> };
};
const language = manifest.contributes.languages.find((l) => l.id === 'kubelet-log');
const grammarEntry = manifest.contributes.grammars?.find((g) => g.language === 'kubelet-log');
interface Rule {
  match?: string;
  captures?: Record<string, { name?: string }>;
}
const grammar = JSON.parse(readFileSync(new URL(grammarEntry?.path ?? 'missing', ROOT), 'utf8')) as { scopeName: string; repository: Record<string, Rule> };

function captures(ruleName: string, line: string): Record<string, string> {
  const rule = grammar.repository[ruleName];
  const m = new RegExp(rule?.match ?? '(?!)').exec(line);
  const out: Record<string, string> = {};
  if (m === null) return out;
  for (const [i, c] of Object.entries(rule?.captures ?? {})) {
    const text = m[Number(i)];
    if (text !== undefined && c.name !== undefined) out[c.name.split('.').slice(0, -1).join('.')] = text;
  }
  return out;
}

describe('kubelet-log language', () => {
  const firstLine = new RegExp(language?.firstLine ?? '(?!)');
  const real = readFileSync(new URL('test/fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', ROOT), 'utf8').split('\n');

  it.each([
    ['klog header', 'I1122 02:59:17.042625   31657 server.go:495] "Kubelet version" kubeletVersion="v1.32.10"'],
    ['journalctl short', 'Nov 22 03:00:44 node-a kubelet[31657]: I1122 03:00:44.1 1 a.go:1] x'],
    ['journalctl short-precise', 'Nov 22 03:00:44.123456 node-a kubelet[31657]: E1122 …'],
    ['journalctl short-iso', '2026-11-22T03:00:44+0000 node-a kubelet[31657]: E1122 …'],
    ['journalctl short-unix', '1795316564.431511 node-a kubelet[31657]: E1122 …'],
    ['JSON lines (a real kubelet 1.36 first line)', readFileSync(new URL('test/fixtures/logs/json-1.36-pleg-fault.log', ROOT), 'utf8').split('\n')[0] as string],
    ['a real kubelet log (flag deprecation warnings first)', real[0] as string],
  ])('detects %s on the first line', (_what, line) => {
    expect(firstLine.test(line)).toBe(true);
  });

  it('does not claim other logs', () => {
    expect(firstLine.test('Nov 22 03:00:44 node-a sshd[812]: Accepted publickey for root')).toBe(false);
    expect(firstLine.test('hello')).toBe(false);
  });

  it('file patterns cover saved logs and journal exports', () => {
    expect(language?.filenamePatterns).toEqual(expect.arrayContaining(['kubelet*.log', 'kubelet*.journal', 'kubelet-journal*.txt', 'kubelet.INFO']));
    expect(grammarEntry?.scopeName).toBe(grammar.scopeName);
  });

  it('grammar: klog header parts', () => {
    expect(captures('klog-header', 'E1122 03:02:44.431380   31657 generic.go:256] "GenericPLEG: Unable to retrieve pods"')).toEqual({
      'invalid.illegal.severity.error': 'E',
      'constant.numeric.timestamp': '1122 03:02:44.431380',
      'constant.numeric.pid': '31657',
      'entity.name.function.source': 'generic.go:256',
      'punctuation.separator.header': ']',
    });
    expect(captures('klog-header', 'W1122 03:02:44.431380 1 a.go:1] x')).toHaveProperty(['markup.changed.severity.warning'], 'W');
    expect(captures('klog-header', 'Nov 22 03:02:44 n kubelet[1]: I1122 03:02:44.431380 1 a.go:1] x')).toHaveProperty(['markup.inserted.severity.info'], 'I');
  });

  it('grammar: journald prefix, key="value" pairs and JSON fields', () => {
    expect(captures('journald-prefix', 'Nov 22 03:00:44.123456 node-a kubelet[31657]: x')).toEqual({
      'constant.numeric.timestamp': 'Nov 22 03:00:44.123456',
      'entity.name.tag.host': 'node-a',
      'entity.name.function.ident': 'kubelet',
      'constant.numeric.pid': '31657',
    });
    expect(captures('pair', ' err="rpc error: \\"x\\"" rest')).toEqual({
      'variable.other.key': 'err',
      'keyword.operator.assignment': '=',
    });
    expect(new RegExp(grammar.repository['pair']?.match ?? '').exec(' err="rpc error: \\"x\\"" rest')?.[3]).toBe('"rpc error: \\"x\\""');
    expect(captures('json-field', '{"msg":"x"}')).toEqual({ 'support.type.property-name.json': '"msg"', 'punctuation.separator.dictionary.key-value.json': ':' });
  });
});
