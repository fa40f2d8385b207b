import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NodeEntry } from '../../../../src/core/tree/contextNodes';
import { resolveConnection } from '../../../../src/host/nodeAccess/nodeSnapshotRunner';
import { SshConfigError } from '../../../../src/infra/ssh/errors';
import { refuseUnknownHosts } from '../../../../src/infra/ssh/hostVerifier';
import { validateNodeAccessConfig } from '../../../../src/infra/ssh/nodeAccessSettings';
import { NodeTargetError } from '../../../../src/infra/ssh/nodeTarget';
import { SshPool } from '../../../../src/infra/ssh/pool';
import { tempDirFactory } from '../../../support/sshTestKit';

const tempDir = tempDirFactory('pleg-resolve-');
const pool = (): SshPool => new SshPool({ knownHosts: { readOnly: [], own: '/nonexistent/known_hosts' }, confirmUnknownHost: refuseUnknownHosts, auth: {} });

function entry(addresses: Array<{ type: string; address: string }> = [{ type: 'InternalIP', address: '10.0.0.7' }]): NodeEntry {
  return {
    kind: 'node',
    context: 'prod',
    name: 'n1',
    node: { metadata: { name: 'n1' }, status: { addresses } },
    classification: {} as NodeEntry['classification'],
  };
}

const configWith = (raw: Record<string, unknown>): ReturnType<typeof validateNodeAccessConfig>['config'] => validateNodeAccessConfig(raw).config;

describe('resolveConnection (settings + ssh config → pooled connection)', () => {
  it('a missing ssh config file is simply no config', async () => {
    const dir = tempDir();
    const config = configWith({ sshConfigFile: join(dir, 'absent'), clusters: { prod: { user: 'ops', port: 2222 } }, identityFiles: [join(dir, 'id')] });
    const { target, plan, host } = await resolveConnection(entry(), config, pool());
    expect(target).toMatchObject({ host: '10.0.0.7', addressSource: 'InternalIP', user: 'ops', port: 2222 });
    expect(plan.target).toMatchObject({ host: '10.0.0.7', port: 2222, user: 'ops' });
    // The setting's identity file comes first, then OpenSSH's defaults are not added (one was given).
    expect(plan.target.identityFiles).toEqual([join(dir, 'id')]);
    expect(host.description).toBe('ops@10.0.0.7:2222');
  });

  it('applies the ssh config (alias from the settings, HostName, ProxyJump) and keeps its warnings', async () => {
    const dir = tempDir();
    const file = join(dir, 'config');
    writeFileSync(file, 'Host n1-alias\n  HostName 10.9.9.9\n  User admin\n  ProxyJump jump@bastion:2200\n  ProxyCommand nc %h %p\nInclude other\n');
    const config = configWith({ sshConfigFile: file, clusters: { prod: { nodes: { n1: { host: 'n1-alias' } } } } });
    const { plan } = await resolveConnection(entry(), config, pool());
    expect(plan.target).toMatchObject({ alias: 'n1-alias', host: '10.9.9.9', user: 'admin', port: 22 });
    expect(plan.jumps.map((j) => `${j.user}@${j.host}:${j.port}`)).toEqual(['jump@bastion:2200']);
    expect(plan.warnings).toContain('ssh config: Include directives are not followed');
  });

  it('a bad ssh config gives an error naming the file', async () => {
    const dir = tempDir();
    const file = join(dir, 'config');
    writeFileSync(file, 'Host 10.0.0.7\n  Port twenty-two\n');
    const error = await resolveConnection(entry(), configWith({ sshConfigFile: file }), pool()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SshConfigError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('invalid port "twenty-two"');
  });

  it('an unreadable ssh config gives an error naming the file', async () => {
    const dir = tempDir();
    const file = join(dir, 'config');
    mkdirSync(file); // reading a directory fails with EISDIR
    const error = await resolveConnection(entry(), configWith({ sshConfigFile: file }), pool()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SshConfigError);
    expect((error as Error).message).toMatch(new RegExp(`cannot read ssh config ${file}: .*EISDIR`));
  });

  it('a node without an address is a NodeTargetError, not a config error', async () => {
    const error = await resolveConnection(entry([]), configWith({ sshConfigFile: join(tempDir(), 'absent') }), pool()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeTargetError);
  });
});
