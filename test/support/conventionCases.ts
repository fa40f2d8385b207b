// The table of kubectl-convention failures every `pleg-doctor` command is held to: a bad flag, a kubeconfig
// that is missing, unreadable or invalid, an unknown context, no --context and no current-context. Each
// row gives the exact stderr (one `pleg-doctor: <command>: ` prefix) and which clause of the command's own
// --help "Exit codes:" line gives its exit code. conventions.test.ts runs the rows in-process;
// test/unit/esbuild.cliBundle.test.ts runs them through dist/cli.js and dist/cliRemote.js, where the usage
// error crossed from one bundle to the other (it exited 1 with the command named twice).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A scratch HOME without ~/.kube, and kubeconfig files that send nothing anywhere (no case reaches a server). */
export interface ConventionFiles {
  dir: string;
  /** HOME for every case: no ~/.kube/config there. */
  home: string;
  /** Contexts a and b, current-context a. */
  good: string;
  /** Context a, no current-context. */
  noCurrent: string;
  /** current-context "gone", which no context has. */
  danglingCurrent: string;
  /** Not YAML. */
  invalid: string;
  /** A folder where a file is expected. */
  folder: string;
  missing: string;
  remove(): void;
}

function kubeconfig(contexts: string[], current?: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    ...(current !== undefined ? [`current-context: ${current}`] : []),
    'clusters:',
    '- name: nowhere',
    '  cluster:',
    // Port 9 (discard) on loopback: were a case to reach it, it would fail, never hang on a real server.
    '    server: https://127.0.0.1:9',
    'users:',
    '- name: u',
    '  user:',
    '    token: not-a-secret',
    'contexts:',
    ...contexts.flatMap((c) => [`- name: ${c}`, '  context:', '    cluster: nowhere', '    user: u']),
    '',
  ].join('\n');
}

export function conventionFiles(): ConventionFiles {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-cli-conventions-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  const write = (name: string, text: string): string => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const folder = join(dir, 'folder.yaml');
  mkdirSync(folder);
  return {
    dir,
    home,
    good: write('good.yaml', kubeconfig(['a', 'b'], 'a')),
    noCurrent: write('no-current.yaml', kubeconfig(['a'])),
    danglingCurrent: write('dangling.yaml', kubeconfig(['a'], 'gone')),
    invalid: write('invalid.yaml', 'clusters: [\n  - name: x\n'),
    folder,
    missing: join(dir, 'missing.yaml'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Which clause of the help's "Exit codes:" line the case's code comes from. */
export type ExitClause = 'bad options' | 'kubeconfig';

export interface ConventionCase {
  name: string;
  command: string;
  argv: string[];
  /** Added to { HOME: files.home }; KUBECONFIG is unset unless given here. */
  env?: Record<string, string>;
  clause: ExitClause;
  /** The whole of stderr. */
  stderr: string | RegExp;
  /** Also run through the built bundles (one row of each kind: each run there costs a Node start). */
  bundle?: true;
}

/** The required options that get each command past its own checks to the point of reading the kubeconfig. */
function live(command: string, files: ConventionFiles): string[] {
  if (command === 'diagnose') return ['--node', 'node-1'];
  if (command === 'timeline') return ['--node', 'node-1', '--for', '1s', '--out', join(files.dir, 'never-written.json')];
  return [];
}

export const CLUSTER_COMMANDS = ['nodes', 'diagnose', 'timeline'] as const;
export const ALL_COMMANDS = ['agent', 'classify', 'diagnose', 'kubelet-journal', 'logs', 'nodes', 'npd-plugin', 'replay', 'simulate', 'snapshot', 'timeline'] as const;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

export function conventionCases(files: ConventionFiles): ConventionCase[] {
  const cases: ConventionCase[] = ALL_COMMANDS.map((command) => ({
    name: `${command}: a bad flag`,
    command,
    argv: ['--bogus'],
    clause: 'bad options',
    stderr: `pleg-doctor: ${command}: unknown option "--bogus"\n`,
    bundle: true,
  }));
  for (const command of CLUSTER_COMMANDS) {
    const p = `pleg-doctor: ${command}: `;
    const args = live(command, files);
    cases.push(
      { name: `${command}: a flag without its value`, command, argv: [...args, '--context'], clause: 'bad options', stderr: `${p}--context needs a value\n` },
      { name: `${command}: --kubeconfig names a missing file`, command, argv: [...args, '--kubeconfig', files.missing], clause: 'kubeconfig', stderr: `${p}kubeconfig ${files.missing}: file not found\n`, bundle: true },
      {
        name: `${command}: --kubeconfig names a folder`,
        command,
        argv: [...args, '--kubeconfig', files.folder],
        clause: 'kubeconfig',
        stderr: new RegExp(`^${escape(`${p}kubeconfig ${files.folder}: cannot read: EISDIR`)}[^\\n]*\\n$`, 'u'),
      },
      {
        name: `${command}: a kubeconfig that is not YAML`,
        command,
        argv: [...args, '--kubeconfig', files.invalid],
        clause: 'kubeconfig',
        stderr: new RegExp(`^${escape(`${p}kubeconfig ${files.invalid}: invalid YAML: `)}[^\\n]+\\n$`, 'u'),
      },
      {
        name: `${command}: an unknown --context`,
        command,
        argv: [...args, '--kubeconfig', files.good, '--context', 'nope'],
        clause: 'kubeconfig',
        stderr: `${p}no context "nope" in the kubeconfig (contexts: a, b)\n`,
        bundle: true,
      },
      {
        name: `${command}: an unknown --context, the kubeconfig from KUBECONFIG (a missing file in the list skipped)`,
        command,
        argv: [...args, '--context', 'nope'],
        env: { KUBECONFIG: [files.missing, files.noCurrent, files.good].join(delimiter) },
        clause: 'kubeconfig',
        stderr: `${p}no context "nope" in the kubeconfig (contexts: a, b)\n`,
      },
      {
        name: `${command}: no --context and no current-context`,
        command,
        argv: [...args, '--kubeconfig', files.noCurrent],
        clause: 'kubeconfig',
        stderr: `${p}no --context given and the kubeconfig sets no current-context (read ${files.noCurrent}); give --context NAME (contexts: a)\n`,
        bundle: true,
      },
      {
        name: `${command}: a current-context that names no context`,
        command,
        argv: [...args, '--kubeconfig', files.danglingCurrent],
        clause: 'kubeconfig',
        stderr: `${p}the kubeconfig's current-context "gone" names no context (contexts: a); give --context NAME\n`,
      },
      {
        name: `${command}: no kubeconfig at all (no KUBECONFIG, no ~/.kube/config)`,
        command,
        argv: args,
        clause: 'kubeconfig',
        stderr: `${p}no --context given and the kubeconfig sets no current-context (no kubeconfig file: ${join(files.home, '.kube', 'config')} not found); give --context NAME (contexts: none)\n`,
      },
    );
  }
  return cases;
}

/** The code the help's "Exit codes:" line gives for a clause, e.g. "2 bad options or kubeconfig (…)". */
export function helpExitCode(help: string, clause: ExitClause): number | undefined {
  const codes = /Exit codes:([\s\S]*)$/u.exec(help)?.[1]?.replace(/\s+/gu, ' ');
  if (codes === undefined) return undefined;
  const pattern = clause === 'bad options' ? /(\d+) bad options\b/u : /(\d+) bad options or kubeconfig \(missing or unreadable, no such context, no current-context\b/u;
  const m = pattern.exec(codes);
  return m?.[1] !== undefined ? Number(m[1]) : undefined;
}
