// Turns user-supplied JSON text into Nodes: a single Node, a NodeList, or `kubectl get nodes -o json`
// output (kind List). Errors name the cause: where the JSON breaks (line and column), or which kind was found.

import type { KubeNode } from '../kube/objects';
import { errorText } from '../util/errorText';

export class NodeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeInputError';
  }
}

/** Parses JSON; on failure the error names line, column and what was expected. */
export function parseJsonText(text: string, source: string): unknown {
  if (text.trim() === '') throw new NodeInputError(`${source}: empty input, expected JSON`);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const offset = jsonErrorOffset(text);
    const { line, column } = lineColumn(text, offset);
    // V8 appends where it failed (" in JSON at position N") or a multi-line excerpt ("…" is not valid JSON);
    // we give line and column instead.
    const reason = errorText(e)
      .replace(/ in JSON at position \d+.*$/su, '')
      .replace(/, (?:\.\.\.)?".*" is not valid JSON$/su, '');
    throw new NodeInputError(`${source}: invalid JSON at line ${line} column ${column} (offset ${offset}): ${reason}`);
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

/**
 * The offset of the first JSON syntax error, found by a small validating scanner. Node 20's JSON.parse
 * does not always say where it failed ("Unexpected token '}', … is not valid JSON").
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw new ScanStop(i);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] ?? '')) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = (): void => {
    if (text[i] !== '"') fail();
    i++;
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch < ' ') fail();
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/u.test(text[i + k] ?? '')) {
            i += k;
            fail();
          }
          i += 5;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail();
      } else i++;
    }
  };
  const isDigit = (): boolean => {
    const ch = text[i];
    return ch !== undefined && ch >= '0' && ch <= '9';
  };
  const digits = (): void => {
    if (!isDigit()) fail();
    while (isDigit()) i++;
  };
  // Character by character, so that "1.e5" or "1e+" fail at the character that is missing.
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    } else if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    } else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else number();
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (e) {
    if (e instanceof ScanStop) return Math.min(e.offset, text.length);
    throw e;
  }
}

class ScanStop {
  constructor(readonly offset: number) {}
}

function describeKind(v: unknown): string {
  if (Array.isArray(v)) return 'a JSON array';
  if (v === null) return 'null';
  if (typeof v !== 'object') return `a JSON ${typeof v}`;
  const kind = (v as Record<string, unknown>)['kind'];
  return kind === undefined ? 'an object without "kind"' : `kind ${JSON.stringify(kind)}`;
}

function isNodeLike(v: unknown): v is KubeNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Record<string, unknown>)['kind'] === 'Node';
}

/** Extracts Nodes from a parsed Node, NodeList or List; anything else is a NodeInputError naming what was found. */
export function extractNodes(value: unknown, source: string): KubeNode[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new NodeInputError(`${source}: expected a Node, NodeList or List, found ${describeKind(value)}`);
  }
  const rec = value as Record<string, unknown>;
  const kind = rec['kind'];
  if (kind === 'Node') return [value as KubeNode];
  if (kind === 'NodeList' || kind === 'List') {
    const items = rec['items'];
    if (!Array.isArray(items)) throw new NodeInputError(`${source}: ${String(kind)} has no "items" list`);
    return items.map((item, index) => {
      // NodeList items carry no kind of their own; List items (kubectl) do.
      if (kind === 'NodeList' && typeof item === 'object' && item !== null && !Array.isArray(item)) {
        const k = (item as Record<string, unknown>)['kind'];
        if (k === undefined || k === 'Node') return item as KubeNode;
      }
      if (isNodeLike(item)) return item;
      throw new NodeInputError(`${source}: items[${index}] is ${describeKind(item)}, expected a Node`);
    });
  }
  throw new NodeInputError(`${source}: expected a Node, NodeList or List, found ${describeKind(value)}`);
}
