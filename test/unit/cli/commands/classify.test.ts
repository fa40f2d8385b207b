import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../src/cli/dispatch';
import { COMMANDS } from '../../../../src/cli/registry';
import { memoryIo } from '../../../support/memoryIo';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/nodes/', import.meta.url));
const KEYS = ['name', 'verdict', 'cordoned', 'since', 'plegLastSeenAgoSeconds', 'plegThresholdSeconds', 'message'];

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string; lines: Record<string, unknown>[] }> {
  const io = memoryIo(stdin, FIXTURES);
  const code = await runCli(args, io, COMMANDS, '9.9.9');
  const lines = io
    .out()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, out: io.out(), err: io.err(), lines };
}

describe('pleg-doctor classify', () => {
  it('a single Node: one line with exactly the documented keys, in order', async () => {
    const r = await run(['classify', 'node-pleg-notready.json']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toBe(
      `${JSON.stringify({
        name: 'ip-10-0-1-17.eu-west-1.compute.internal',
        verdict: 'pleg',
        cordoned: false,
        since: '2026-11-22T02:41:07.000Z',
        plegLastSeenAgoSeconds: 226.752815514,
        plegThresholdSeconds: 180,
        message: 'PLEG is not healthy: pleg was last seen active 3m46.752815514s ago; threshold is 3m0s',
      })}\n`,
    );
  });

  it('kubectl get nodes -o json (kind List)', async () => {
    const r = await run(['classify', 'kubectl-get-nodes.json']);
    expect(r.code).toBe(0);
    expect(r.lines.map((l) => Object.keys(l))).toEqual(Array(4).fill(KEYS));
    expect(r.lines.map((l) => [l['name'], l['verdict'], l['cordoned']])).toEqual([
      ['worker-1', 'ready', false],
      ['ip-10-0-1-17.eu-west-1.compute.internal', 'pleg', false],
      ['worker-2', 'ready', true],
      ['worker-7', 'lease-lost', false],
    ]);
    expect(r.lines[0]).toMatchObject({ plegLastSeenAgoSeconds: null, plegThresholdSeconds: null });
  });

  it('a NodeList from stdin with "-"', async () => {
    const r = await run(['classify', '-'], readFileSync(`${FIXTURES}nodelist.json`, 'utf8'));
    expect(r.code).toBe(0);
    expect(r.lines.map((l) => l['verdict'])).toEqual(['ready', 'pleg', 'network', 'runtime-down']);
  });

  it('--fail-on-not-ready turns findings into exit 1', async () => {
    expect((await run(['classify', '--fail-on-not-ready', 'nodelist.json'])).code).toBe(1);
    expect((await run(['classify', '--fail-on-not-ready', 'node-cordoned-ready.json'])).code).toBe(0);
  });

  it('a node with no conditions: nulls, not a crash; input warnings go to stderr', async () => {
    const r = await run(['classify', 'node-no-conditions.json']);
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      {
        name: 'fresh-node',
        verdict: 'not-ready-other',
        cordoned: false,
        since: null,
        plegLastSeenAgoSeconds: null,
        plegThresholdSeconds: null,
        message: 'The Node has no status conditions: the kubelet has never reported its status.',
      },
    ]);
    const dup = await run(
      ['classify', '-'],
      JSON.stringify({ kind: 'Node', metadata: { name: 'd' }, status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Ready', status: 'True' }] } }),
    );
    expect(dup.err).toBe('pleg-doctor: classify: warning: d: 2 Ready conditions; using the one with the latest heartbeat\n');
  });

  describe('bad input exits 2 naming the cause', () => {
    it.each([
      [['classify', 'missing.json'], 'pleg-doctor: classify: missing.json: no such file\n'],
      [['classify', 'not-a-node-pod.json'], 'pleg-doctor: classify: not-a-node-pod.json: expected a Node, NodeList or List, found kind "Pod"\n'],
      [['classify', 'list-with-pod.json'], 'pleg-doctor: classify: list-with-pod.json: items[1] is kind "Pod", expected a Node\n'],
      [['classify', '.'], 'pleg-doctor: classify: .: is a directory, expected a JSON file\n'],
      [['classify'], 'pleg-doctor: classify: missing FILE (use "-" for standard input)\n'],
      [['classify', 'a', 'b'], 'pleg-doctor: classify: expected one FILE, got 2\n'],
      [['classify', '--bogus', 'a'], 'pleg-doctor: classify: unknown option "--bogus"\n'],
    ])('%j', async (args, err) => {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.err).toBe(err);
      expect(r.out).toBe('');
    });

    it('truncated JSON: file name, line and column', async () => {
      const r = await run(['classify', 'truncated.json']);
      expect(r.code).toBe(2);
      const text = readFileSync(`${FIXTURES}truncated.json`, 'utf8');
      const lastLine = text.split('\n').length;
      expect(r.err).toMatch(new RegExp(`^pleg-doctor: classify: truncated\\.json: invalid JSON at line ${lastLine} column \\d+ \\(offset \\d+\\): `, 'u'));
    });

    it('garbage on stdin: the position of the bad token', async () => {
      const r = await run(['classify', '-'], '{\n  "kind": "Node",\n  "metadata": { "name": x }\n}');
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^pleg-doctor: classify: standard input: invalid JSON at line 3 column 25 \(offset 44\): Unexpected token 'x'\n$/u);
    });

    it('empty stdin, a JSON array, a JSON string', async () => {
      expect((await run(['classify', '-'], '  ')).err).toBe('pleg-doctor: classify: standard input: empty input, expected JSON\n');
      expect((await run(['classify', '-'], '[]')).err).toBe('pleg-doctor: classify: standard input: expected a Node, NodeList or List, found a JSON array\n');
      expect((await run(['classify', '-'], '"node"')).err).toBe('pleg-doctor: classify: standard input: expected a Node, NodeList or List, found a JSON string\n');
    });
  });

  it('--help prints the usage and exits 0', async () => {
    const r = await run(['classify', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: pleg-doctor classify');
  });
});

describe('pleg-doctor (dispatch)', () => {
  it('--version, --help, no arguments, unknown command', async () => {
    expect(await run(['--version'])).toMatchObject({ code: 0, out: '9.9.9\n' });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/classify +Classify Nodes/u);
    expect(help.out).toMatch(/nodes +List the live nodes/u);
    expect((await run([])).code).toBe(2);
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    // The lead registers more commands; the list must name at least ours.
    expect(unknown.err).toMatch(/^pleg-doctor: unknown command "frobnicate" \(commands: [a-z, -]*\bclassify, [a-z, -]*\bnodes\b[a-z, -]*; try --help\)\n$/u);
    expect(await run(['--frob'])).toMatchObject({ code: 2 });
    expect((await run(['toString'])).code).toBe(2); // not an inherited property
  });

  it('a command that throws an unexpected error → exit 1 with the message', async () => {
    const io = memoryIo();
    const code = await runCli(['boom'], io, { boom: { summary: '', load: () => Promise.resolve(() => Promise.reject(new Error('socket closed'))) } }, '1');
    expect(code).toBe(1);
    expect(io.err()).toBe('pleg-doctor: boom: socket closed\n');
  });

  it('an interrupted command → exit 130', async () => {
    const io = memoryIo();
    io.controller.abort(new Error('interrupted by SIGINT'));
    const code = await runCli(['slow'], io, { slow: { summary: '', load: () => Promise.resolve(() => Promise.reject(new Error('aborted'))) } }, '1');
    expect(code).toBe(130);
    expect(io.err()).toBe('pleg-doctor: slow: interrupted by SIGINT\n');
  });
});
