// `node dist/demo.js [--kubeconfig <file>] [--static]`: serves the scripted demo cluster (contexts
// prod-eu and staging) on 127.0.0.1, writes a kubeconfig for it, prints where, and runs until SIGINT or
// SIGTERM. The last line it prints on startup, `DEMO_READY kubeconfig=<path>`, is for scripts/demo.mjs.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from '../core/util/logger';
import { demoKubeconfigYaml } from './demoKubeconfig';
import { startDemo } from './demoRunner';
import { errorText } from '../core/util/errorText';

interface Args {
  kubeconfig?: string;
  live: boolean;
}

function usage(): string {
  return 'usage: node dist/demo.js [--kubeconfig <file>] [--static]\n' +
    '  --kubeconfig <file>  where to write the kubeconfig (default: a fresh temp dir, removed on exit)\n' +
    '  --static             serve the cluster as it is at start; nodes do not flap\n';
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { live: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--kubeconfig') {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error('--kubeconfig needs a file path');
      args.kubeconfig = resolve(v);
    } else if (a === '--static') {
      args.live = false;
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(usage());
      process.exit(0);
    } else {
      throw new Error(`unknown argument "${a ?? ''}"\n${usage()}`);
    }
  }
  return args;
}

const stderrLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: (m) => process.stderr.write(`${new Date().toISOString()} ${m}\n`),
  warn: (m) => process.stderr.write(`${new Date().toISOString()} warn ${m}\n`),
  error: (m) => process.stderr.write(`${new Date().toISOString()} error ${m instanceof Error ? (m.stack ?? m.message) : m}\n`),
};

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const ownDir = args.kubeconfig === undefined ? mkdtempSync(join(tmpdir(), 'pleg-doctor-demo-')) : undefined;
  const kubeconfigPath = args.kubeconfig ?? join(ownDir ?? '.', 'kubeconfig');

  const demo = await startDemo({ live: args.live, logger: stderrLogger });
  mkdirSync(dirname(kubeconfigPath), { recursive: true });
  writeFileSync(kubeconfigPath, demoKubeconfigYaml(demo.kubeconfigEntries()), { mode: 0o600 });

  process.stdout.write('PLEG Doctor demo cluster (loopback Kubernetes API stand-ins)\n');
  for (const c of demo.contexts) {
    const roles = c.spec.nodes.filter((n) => n.role !== 'healthy').map((n) => `${n.name}: ${n.role}`);
    process.stdout.write(`  context ${c.spec.context.padEnd(8)} ${c.server.url}  ${c.spec.nodes.length} nodes${roles.length ? `  (${roles.join(', ')})` : ''}\n`);
  }
  process.stdout.write(`  export KUBECONFIG=${kubeconfigPath}\n`);
  process.stdout.write(`DEMO_READY kubeconfig=${kubeconfigPath}\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    stderrLogger.info(`demo: ${signal}, stopping`);
    demo
      .stop()
      .catch((err: unknown) => stderrLogger.error(err instanceof Error ? err : String(err)))
      .finally(() => {
        if (ownDir !== undefined) rmSync(ownDir, { recursive: true, force: true });
        process.exit(0);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`pleg-doctor demo: ${errorText(err)}\n`);
  process.exit(1);
});
