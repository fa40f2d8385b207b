// ~/.ssh/config resolution for one host alias → a connection plan (the hops to connect through, in
// order). Parsing and Host/Match evaluation are the `ssh-config` package's; token expansion, ProxyJump
// chains and the precedence of explicit options (they win, as on the ssh command line) are ours.
//
// Not supported, reported as warnings: ProxyCommand (use ProxyJump), Include, `Match exec` (never run:
// evaluating it would execute shell commands from a config file on the user's behalf).

import { readFile } from 'node:fs/promises';
import SSHConfig from 'ssh-config';
import { SshConfigError } from './errors';

export interface SshHop {
  /** What the user named (alias or address); known_hosts uses `host`, as ssh does with HostName. */
  alias: string;
  host: string;
  port: number;
  user: string;
  identityFiles: string[];
}

export interface ConnectionPlan {
  target: SshHop;
  /** Jump hosts in connection order: jumps[0] is dialled directly, each next one through the previous. */
  jumps: SshHop[];
  /** UserKnownHostsFile entries from the config (already expanded), if any. */
  userKnownHostsFiles: string[];
  warnings: string[];
}

export interface HostRequest {
  /** An ssh_config Host alias or an address. */
  host: string;
  user?: string;
  port?: number;
  identityFiles?: readonly string[];
  /** Overrides ProxyJump from the config; `none` disables it. Same syntax as ProxyJump / `ssh -J`. */
  jumpHost?: string;
}

export interface SshConfigContext {
  /** Text of ~/.ssh/config; undefined when there is none. */
  configText: string | undefined;
  homeDir: string;
  localUser: string;
  localHostName?: string;
}

const maxJumpDepth = 8;

interface Computed {
  hostname?: string;
  user?: string;
  port?: string;
  identityfile?: string[];
  proxyjump?: string;
  proxycommand?: string;
  userknownhostsfile?: string[];
  include?: string[];
}

function compute(config: SSHConfig | undefined, alias: string): Computed {
  if (config === undefined) return {};
  const raw = config.compute(alias, { ignoreCase: true, matchExec: false });
  const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
  const many = (value: string | string[] | undefined): string[] | undefined =>
    value === undefined ? undefined : Array.isArray(value) ? value : value.split(/\s+/).filter((v) => v !== '');
  const result: Computed = {};
  const set = <K extends keyof Computed>(key: K, value: Computed[K] | undefined): void => {
    if (value !== undefined) result[key] = value;
  };
  set('hostname', one(raw['hostname']));
  set('user', one(raw['user']));
  set('port', one(raw['port']));
  set('identityfile', many(raw['identityfile']));
  set('proxyjump', one(raw['proxyjump']));
  set('proxycommand', one(raw['proxycommand']));
  set('userknownhostsfile', many(raw['userknownhostsfile']));
  return result;
}

interface TokenValues {
  home: string;
  localUser: string;
  host: string;
  remoteUser: string;
  port: number;
  alias: string;
  localHostName?: string;
}

/** Expands `~` and the ssh_config(5) TOKENS we can know: %% %d %u %h %r %p %n %l. */
export function expandSshTokens(value: string, tokens: TokenValues, directive: string): string {
  const tilde = value === '~' ? tokens.home : value.startsWith('~/') ? `${tokens.home}${value.slice(1)}` : value;
  return tilde.replace(/%(.)?/g, (match, letter: string | undefined) => {
    switch (letter) {
      case '%':
        return '%';
      case 'd':
        return tokens.home;
      case 'u':
        return tokens.localUser;
      case 'h':
        return tokens.host;
      case 'r':
        return tokens.remoteUser;
      case 'p':
        return String(tokens.port);
      case 'n':
        return tokens.alias;
      case 'l':
        if (tokens.localHostName !== undefined) return tokens.localHostName;
        break;
      case undefined:
      default:
        break;
    }
    throw new SshConfigError(`${directive} ${JSON.stringify(value)}: unsupported token ${match}`, tokens.alias);
  });
}

function parsePort(value: string, where: string, alias: string): number {
  const port = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SshConfigError(`${where}: invalid port ${JSON.stringify(value)}`, alias);
  }
  return port;
}

/** One `ProxyJump`/`-J` element: `[user@]host[:port]`, `[user@][v6addr]:port`, or `ssh://[user@]host[:port]`. */
export function parseJumpSpec(spec: string, alias: string): { host: string; user?: string; port?: number } {
  let rest = spec.startsWith('ssh://') ? spec.slice('ssh://'.length) : spec;
  let user: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    user = rest.slice(0, at);
    rest = rest.slice(at + 1);
  }
  let host = rest;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  if (bracketed?.[1] !== undefined) {
    host = bracketed[1];
    if (bracketed[2] !== undefined) port = parsePort(bracketed[2], `ProxyJump ${spec}`, alias);
  } else {
    const colon = rest.lastIndexOf(':');
    if (colon >= 0 && rest.indexOf(':') === colon) {
      host = rest.slice(0, colon);
      port = parsePort(rest.slice(colon + 1), `ProxyJump ${spec}`, alias);
    }
  }
  if (host === '' || user === '') throw new SshConfigError(`ProxyJump ${JSON.stringify(spec)}: empty host or user`, alias);
  return { host, ...(user !== undefined ? { user } : {}), ...(port !== undefined ? { port } : {}) };
}

export function parseSshConfigText(text: string | undefined): SSHConfig | undefined {
  return text === undefined ? undefined : SSHConfig.parse(text);
}

export function resolveConnectionPlan(request: HostRequest, context: SshConfigContext): ConnectionPlan {
  const config = parseSshConfigText(context.configText);
  const warnings: string[] = [];
  if (context.configText !== undefined && /^\s*include\s/im.test(context.configText)) {
    warnings.push('ssh config: Include directives are not followed');
  }
  if (context.configText !== undefined && /^\s*match\s.*\bexec\b/im.test(context.configText)) {
    warnings.push('ssh config: Match exec blocks are never evaluated');
  }
  const userKnownHostsFiles: string[] = [];

  const resolveHop = (req: HostRequest, depth: number, seen: readonly string[]): SshHop[] => {
    if (depth > maxJumpDepth) {
      throw new SshConfigError(`ProxyJump chain deeper than ${maxJumpDepth} hops`, req.host);
    }
    if (seen.includes(req.host)) {
      throw new SshConfigError(`ProxyJump loop: ${[...seen, req.host].join(' → ')}`, req.host);
    }
    const c = compute(config, req.host);
    const hostName = c.hostname !== undefined ? expandHostName(c.hostname, req.host) : req.host;
    const port = req.port ?? (c.port !== undefined ? parsePort(c.port, `Port for ${req.host}`, req.host) : 22);
    const user = req.user ?? c.user ?? context.localUser;
    const tokens: TokenValues = {
      home: context.homeDir,
      localUser: context.localUser,
      host: hostName,
      remoteUser: user,
      port,
      alias: req.host,
      ...(context.localHostName !== undefined ? { localHostName: context.localHostName } : {}),
    };
    const identityFiles = [...(req.identityFiles ?? []), ...(c.identityfile ?? [])].map((f) => expandSshTokens(f, tokens, 'IdentityFile'));
    for (const file of c.userknownhostsfile ?? []) {
      if (file !== 'none') userKnownHostsFiles.push(expandSshTokens(file, tokens, 'UserKnownHostsFile'));
    }
    const jumpValue = req.jumpHost ?? c.proxyjump;
    if (c.proxycommand !== undefined && jumpValue === undefined) {
      warnings.push(`ssh config: ProxyCommand for ${req.host} is not supported (use ProxyJump); connecting directly`);
    }
    const hop: SshHop = { alias: req.host, host: hostName, port, user, identityFiles: [...new Set(identityFiles)] };
    if (jumpValue === undefined || jumpValue === 'none') return [hop];
    const chain: SshHop[] = [];
    for (const element of jumpValue.split(',')) {
      const spec = parseJumpSpec(element.trim(), req.host);
      // A jump host named in ProxyJump is itself resolved through the config, including its own ProxyJump.
      const hops = resolveHop(
        { host: spec.host, ...(spec.user !== undefined ? { user: spec.user } : {}), ...(spec.port !== undefined ? { port: spec.port } : {}) },
        depth + 1,
        [...seen, req.host],
      );
      // The first element starts the chain; later elements are reached through the earlier ones, so only
      // the first may bring its own jump hosts along.
      chain.push(...(chain.length === 0 ? hops : hops.slice(-1)));
    }
    return [...chain, hop];
  };

  const hops = resolveHop(request, 0, []);
  const target = hops[hops.length - 1];
  if (target === undefined) throw new SshConfigError('empty connection plan', request.host);
  return { target, jumps: hops.slice(0, -1), userKnownHostsFiles, warnings };
}

function expandHostName(value: string, alias: string): string {
  return value.replace(/%(.)?/g, (match, letter: string | undefined) => {
    if (letter === '%') return '%';
    if (letter === 'h') return alias;
    throw new SshConfigError(`HostName ${JSON.stringify(value)}: unsupported token ${match}`, alias);
  });
}

/** Reads ~/.ssh/config (or another file); a missing file is simply no config. */
export async function readSshConfigFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SshConfigError(`cannot read ssh config ${path}: ${(error as Error).message}`, path, { cause: error });
  }
}
