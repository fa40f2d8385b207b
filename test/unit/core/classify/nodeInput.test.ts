import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { extractNodes, jsonErrorOffset, NodeInputError, parseJsonText } from '../../../../src/core/classify/nodeInput';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a": }', 6],
    ['{"a": 1', 7],
    ['{"a" 1}', 5],
    ['[1, 2,]', 6],
    ['{"a": tru}', 6 + 3],
    ['{"a": "x\ny"}', 8],
    ['{"a": "\\q"}', 8],
    ['{"a": "\\u12G4"}', 11],
    ['{} x', 3],
    ['', 0],
    ['01', 1],
    ['{"a": -}', 7],
  ])('%j → %i', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  test.prop([fc.json()])('valid JSON has no error before its end', (text) => {
    expect(jsonErrorOffset(text)).toBe(text.length);
  });

  // Oracle: valid documents scan clean; broken ones never fail before V8's "at position N" (V8 points at the
  // start of a bad number token, we at the offending character inside it, so equality is too strict).
  test.prop([fc.json().filter((t) => t.length > 1), fc.nat(), fc.constantFrom('{', '}', '[', ']', ',', ':', '"', 'x', '1', ' ', '\\', '')])(
    'agrees with JSON.parse on broken documents',
    (text, at, ch) => {
      const i = at % text.length;
      const broken = text.slice(0, i) + ch + text.slice(i + 1);
      let position: number | undefined;
      let valid = true;
      try {
        JSON.parse(broken);
      } catch (e) {
        valid = false;
        const m = / at position (\d+)/u.exec((e as Error).message);
        if (m?.[1] !== undefined) position = Number(m[1]);
      }
      const offset = jsonErrorOffset(broken);
      if (valid) expect(offset).toBe(broken.length);
      else if (position !== undefined) expect(offset).toBeGreaterThanOrEqual(position);
      if (!valid) expect(offset).toBeLessThanOrEqual(broken.length);
    },
  );
});

describe('parseJsonText', () => {
  it('names source, line and column', () => {
    expect(() => parseJsonText('{\n  "a": 1,\n  "b": ]\n}', 'x.json')).toThrow(
      new NodeInputError("x.json: invalid JSON at line 3 column 8 (offset 19): Unexpected token ']'"),
    );
  });
});

describe('extractNodes', () => {
  it('Node, NodeList (items without kind), List', () => {
    expect(extractNodes({ kind: 'Node', metadata: { name: 'a' } }, 's')).toHaveLength(1);
    expect(extractNodes({ kind: 'NodeList', items: [{ metadata: { name: 'a' } }, { kind: 'Node' }] }, 's')).toHaveLength(2);
    expect(extractNodes({ kind: 'List', items: [] }, 's')).toEqual([]);
  });
  it.each([
    [{ kind: 'List', items: [{ metadata: {} }] }, 's: items[0] is an object without "kind", expected a Node'],
    [{ kind: 'NodeList', items: [{ kind: 'Pod' }] }, 's: items[0] is kind "Pod", expected a Node'],
    [{ kind: 'NodeList' }, 's: NodeList has no "items" list'],
    [{ metadata: { name: 'a' } }, 's: expected a Node, NodeList or List, found an object without "kind"'],
    [null, 's: expected a Node, NodeList or List, found null'],
    [3, 's: expected a Node, NodeList or List, found a JSON number'],
  ])('%j', (value, message) => {
    expect(() => extractNodes(value, 's')).toThrow(new NodeInputError(message));
  });
});
