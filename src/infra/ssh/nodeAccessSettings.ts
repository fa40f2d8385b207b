// Validation of the raw `plegDoctor.nodeAccess.*` setting values (whatever JSON the user wrote) into the
// typed NodeAccessSettings. VS Code's JSON schema only warns in the editor, so the values can still be
// anything here. Every problem names the exact setting path; a problem that concerns a context (or one of
// its nodes) blocks node access there, because ignoring a mistyped `host` or `port` would silently connect
// somewhere other than where the user asked.

import type { NodeAccessClusterSettings, NodeAccessNodeOverride, NodeAccessSettings } from './nodeTarget';
import { parseJumpSpec } from './sshConfig';
import { describeValue } from '../../core/util/describeValue';

export const CLUSTERS_SETTING = 'plegDoctor.nodeAccess.clusters';

export interface NodeAccessSettingsProblem {
  /** Full path of the offending value, e.g. `plegDoctor.nodeAccess.clusters["prod"].nodes["n1"].port`. */
  path: string;
  message: string;
  /** The kubeconfig context the problem concerns; undefined when it concerns every context. */
  context?: string;
  /** The node the problem concerns, when it is inside a per-node override. */
  node?: string;
}

export interface ValidatedNodeAccessSettings {
  settings: NodeAccessSettings;
  problems: NodeAccessSettingsProblem[];
}

const clusterKeys = ['user', 'port', 'jumpHost', 'sudo', 'hostTemplate', 'nodes'] as const;
const nodeKeys = ['host', 'user', 'port'] as const;
const templateTokens = ['name', 'internalIP', 'externalIP', 'hostname'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function key(name: string): string {
  return `[${JSON.stringify(name)}]`;
}

class Collector {
  readonly problems: NodeAccessSettingsProblem[] = [];
  add(path: string, message: string, context?: string, node?: string): void {
    this.problems.push({
      path,
      message: `${path} ${message}`,
      ...(context !== undefined ? { context } : {}),
      ...(node !== undefined ? { node } : {}),
    });
  }
}

// A user name goes to the SSH protocol (never a shell), but whitespace, control characters or a leading
// '-' are certainly mistakes.
const userPattern = /^[A-Za-z0-9_.][A-Za-z0-9_.@-]*$/;
// Same rule as nodeTarget's host check: an address or an ssh_config alias, nothing a tool could read as an option.
const hostPattern = /^[A-Za-z0-9_][A-Za-z0-9._:%@-]*$/;

function readPort(value: unknown, path: string, out: Collector, context: string, node?: string): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535) return value;
  out.add(path, `must be an integer 1–65535, got ${describeValue(value)}`, context, node);
  return undefined;
}

function readUser(value: unknown, path: string, out: Collector, context: string, node?: string): string | undefined {
  if (typeof value === 'string' && value.length <= 64 && userPattern.test(value)) return value;
  out.add(path, `must be a user name (letters, digits, . _ - @; not starting with -), got ${describeValue(value)}`, context, node);
  return undefined;
}

function readHost(value: unknown, path: string, out: Collector, context: string, node: string): string | undefined {
  if (typeof value === 'string' && value.length <= 253 && hostPattern.test(value)) return value;
  out.add(path, `must be a host name, an address or an ssh_config Host alias, got ${describeValue(value)}`, context, node);
  return undefined;
}

function readJumpHost(value: unknown, path: string, out: Collector, context: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') {
    out.add(path, `must be a ProxyJump value such as "ops@bastion:22" (or "none"), got ${describeValue(value)}`, context);
    return undefined;
  }
  if (value === 'none') return value;
  for (const element of value.split(',')) {
    try {
      const spec = parseJumpSpec(element.trim(), context);
      if (!hostPattern.test(spec.host) || (spec.user !== undefined && !userPattern.test(spec.user))) {
        out.add(path, `has an unusable jump host ${JSON.stringify(element.trim())}`, context);
        return undefined;
      }
    } catch (error) {
      out.add(path, `is not a valid ProxyJump value: ${(error as Error).message}`, context);
      return undefined;
    }
  }
  return value;
}

function readTemplate(value: unknown, path: string, out: Collector, context: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') {
    out.add(path, `must be a host name template such as "{name}.nodes.example.com", got ${describeValue(value)}`, context);
    return undefined;
  }
  const unknown = [...value.matchAll(/\{(\w*)\}/g)].map((m) => m[1] ?? '').filter((token) => !templateTokens.includes(token));
  if (unknown.length > 0) {
    out.add(path, `uses unknown token ${unknown.map((u) => `{${u}}`).join(', ')} (known: ${templateTokens.map((u) => `{${u}}`).join(' ')})`, context);
    return undefined;
  }
  return value;
}

function readNodes(value: unknown, path: string, out: Collector, context: string): Record<string, NodeAccessNodeOverride> | undefined {
  if (!isPlainObject(value)) {
    out.add(path, `must be an object keyed by node name, got ${describeValue(value)}`, context);
    return undefined;
  }
  const nodes: Record<string, NodeAccessNodeOverride> = {};
  for (const [nodeName, raw] of Object.entries(value)) {
    const nodePath = `${path}${key(nodeName)}`;
    if (!isPlainObject(raw)) {
      out.add(nodePath, `must be an object with host, user or port, got ${describeValue(raw)}`, context, nodeName);
      continue;
    }
    const override: NodeAccessNodeOverride = {};
    for (const [field, fieldValue] of Object.entries(raw)) {
      const fieldPath = `${nodePath}.${field}`;
      switch (field) {
        case 'host': {
          const host = readHost(fieldValue, fieldPath, out, context, nodeName);
          if (host !== undefined) override.host = host;
          break;
        }
        case 'user': {
          const user = readUser(fieldValue, fieldPath, out, context, nodeName);
          if (user !== undefined) override.user = user;
          break;
        }
        case 'port': {
          const port = readPort(fieldValue, fieldPath, out, context, nodeName);
          if (port !== undefined) override.port = port;
          break;
        }
        default:
          out.add(fieldPath, `is not a known key (known: ${nodeKeys.join(', ')})`, context, nodeName);
      }
    }
    nodes[nodeName] = override;
  }
  return nodes;
}

function readCluster(raw: Record<string, unknown>, path: string, out: Collector, context: string): NodeAccessClusterSettings {
  const cluster: NodeAccessClusterSettings = {};
  for (const [field, value] of Object.entries(raw)) {
    const fieldPath = `${path}.${field}`;
    switch (field) {
      case 'user': {
        const user = readUser(value, fieldPath, out, context);
        if (user !== undefined) cluster.user = user;
        break;
      }
      case 'port': {
        const port = readPort(value, fieldPath, out, context);
        if (port !== undefined) cluster.port = port;
        break;
      }
      case 'jumpHost': {
        const jumpHost = readJumpHost(value, fieldPath, out, context);
        if (jumpHost !== undefined) cluster.jumpHost = jumpHost;
        break;
      }
      case 'sudo':
        if (typeof value === 'boolean') cluster.sudo = value;
        else out.add(fieldPath, `must be true or false, got ${describeValue(value)}`, context);
        break;
      case 'hostTemplate': {
        const template = readTemplate(value, fieldPath, out, context);
        if (template !== undefined) cluster.hostTemplate = template;
        break;
      }
      case 'nodes': {
        const nodes = readNodes(value, fieldPath, out, context);
        if (nodes !== undefined) cluster.nodes = nodes;
        break;
      }
      default:
        out.add(fieldPath, `is not a known key (known: ${clusterKeys.join(', ')})`, context);
    }
  }
  return cluster;
}

/** Validates the raw `plegDoctor.nodeAccess.clusters` value. Undefined or null means "no settings". */
export function validateNodeAccessClusters(raw: unknown): ValidatedNodeAccessSettings {
  const out = new Collector();
  const clusters: Record<string, NodeAccessClusterSettings> = {};
  if (raw === undefined || raw === null) return { settings: { clusters }, problems: [] };
  if (!isPlainObject(raw)) {
    out.add(CLUSTERS_SETTING, `must be an object keyed by kubeconfig context name, got ${describeValue(raw)}`);
    return { settings: { clusters }, problems: out.problems };
  }
  for (const [context, value] of Object.entries(raw)) {
    const path = `${CLUSTERS_SETTING}${key(context)}`;
    if (!isPlainObject(value)) {
      out.add(path, `must be an object (user, port, jumpHost, sudo, hostTemplate, nodes), got ${describeValue(value)}`, context);
      continue;
    }
    clusters[context] = readCluster(value, path, out, context);
  }
  return { settings: { clusters }, problems: out.problems };
}

/**
 * The problems that make node access to this node unsafe to attempt: those of its context, of its own
 * override, and a `clusters` value that is not an object at all. Problems in the other settings do not
 * block: their defaults are safe (they only change how, not where, PLEG Doctor connects).
 */
export function problemsBlocking(problems: readonly NodeAccessSettingsProblem[], context: string, node: string): NodeAccessSettingsProblem[] {
  return problems.filter(
    (p) => p.path.startsWith(CLUSTERS_SETTING) && (p.context === undefined || (p.context === context && (p.node === undefined || p.node === node))),
  );
}

export type NodeAccessTransportSetting = 'auto' | 'forward' | 'exec' | 'crictl';

/** Every plegDoctor.nodeAccess.* value, validated, with defaults applied where a value is missing or bad. */
export interface NodeAccessConfig {
  clusters: NodeAccessSettings;
  /** As written (not yet expanded: `~` and `${env:X}` are the host's to expand). */
  identityFiles: string[];
  /** "" = ~/.ssh/config. */
  sshConfigFile: string;
  /** "" = detect on the node. */
  criEndpoint: string;
  transport: NodeAccessTransportSetting;
  callTimeoutMs: number;
  probes: boolean;
  useSshAgent: boolean;
}

export interface RawNodeAccessValues {
  clusters?: unknown;
  identityFiles?: unknown;
  sshConfigFile?: unknown;
  criEndpoint?: unknown;
  transport?: unknown;
  callTimeoutMs?: unknown;
  probes?: unknown;
  useSshAgent?: unknown;
}

export const nodeAccessDefaults = { transport: 'auto', callTimeoutMs: 5_000, probes: true, useSshAgent: true } as const;
const transports: readonly NodeAccessTransportSetting[] = ['auto', 'forward', 'exec', 'crictl'];

export function validateNodeAccessConfig(raw: RawNodeAccessValues): { config: NodeAccessConfig; problems: NodeAccessSettingsProblem[] } {
  const { settings, problems } = validateNodeAccessClusters(raw.clusters);
  const out = new Collector();
  const setting = (name: string): string => `plegDoctor.nodeAccess.${name}`;

  let identityFiles: string[] = [];
  if (raw.identityFiles !== undefined && raw.identityFiles !== null) {
    if (!Array.isArray(raw.identityFiles)) out.add(setting('identityFiles'), `must be a list of file paths, got ${describeValue(raw.identityFiles)}`);
    else {
      raw.identityFiles.forEach((file: unknown, index) => {
        if (typeof file === 'string' && file.trim() !== '') identityFiles.push(file);
        else out.add(`${setting('identityFiles')}[${index}]`, `must be a file path, got ${describeValue(file)}`);
      });
    }
  }
  identityFiles = [...new Set(identityFiles)];

  const text = (name: 'sshConfigFile' | 'criEndpoint'): string => {
    const value = raw[name];
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value.trim();
    out.add(setting(name), `must be a string, got ${describeValue(value)}`);
    return '';
  };
  const flag = (name: 'probes' | 'useSshAgent'): boolean => {
    const value = raw[name];
    if (value === undefined || value === null) return nodeAccessDefaults[name];
    if (typeof value === 'boolean') return value;
    out.add(setting(name), `must be true or false, got ${describeValue(value)}`);
    return nodeAccessDefaults[name];
  };

  let transport: NodeAccessTransportSetting = nodeAccessDefaults.transport;
  if (raw.transport !== undefined && raw.transport !== null) {
    if (typeof raw.transport === 'string' && (transports as readonly string[]).includes(raw.transport)) transport = raw.transport as NodeAccessTransportSetting;
    else out.add(setting('transport'), `must be one of ${transports.join(', ')}, got ${describeValue(raw.transport)}`);
  }
  let callTimeoutMs: number = nodeAccessDefaults.callTimeoutMs;
  if (raw.callTimeoutMs !== undefined && raw.callTimeoutMs !== null) {
    if (typeof raw.callTimeoutMs === 'number' && Number.isFinite(raw.callTimeoutMs) && raw.callTimeoutMs >= 100 && raw.callTimeoutMs <= 3_600_000) {
      callTimeoutMs = Math.round(raw.callTimeoutMs);
    } else out.add(setting('callTimeoutMs'), `must be a number of milliseconds from 100 to 3600000, got ${describeValue(raw.callTimeoutMs)}`);
  }

  const config: NodeAccessConfig = {
    clusters: settings,
    identityFiles,
    sshConfigFile: text('sshConfigFile'),
    criEndpoint: text('criEndpoint'),
    transport,
    callTimeoutMs,
    probes: flag('probes'),
    useSshAgent: flag('useSshAgent'),
  };
  return { config, problems: [...problems, ...out.problems] };
}
