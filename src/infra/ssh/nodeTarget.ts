// Which SSH host is a Kubernetes node. By default the node's own addresses (InternalIP, then ExternalIP,
// then Hostname); settings may override per cluster (kubeconfig context) and per node, name an ssh_config
// Host alias, a jump host, the user and `sudo -n`. Everything here is pure; address strings come from the
// cluster and are validated before they are used as a host name.

import type { KubeNode } from '../../core/kube/objects';
import type { HostRequest } from './sshConfig';

export interface NodeAccessNodeOverride {
  /** An address or an ssh_config Host alias. */
  host?: string;
  user?: string;
  port?: number;
}

export interface NodeAccessClusterSettings {
  user?: string;
  port?: number;
  /** ProxyJump syntax: `[user@]host[:port]`, comma-separated for a chain, or an ssh_config alias. */
  jumpHost?: string;
  /** Prefix privileged probes with `sudo -n` (never prompts). */
  sudo?: boolean;
  /** e.g. `{name}.nodes.example.com` or `ssh-{name}`; tokens: {name} {internalIP} {externalIP} {hostname}. */
  hostTemplate?: string;
  nodes?: Record<string, NodeAccessNodeOverride>;
}

export interface NodeAccessSettings {
  clusters: Record<string, NodeAccessClusterSettings>;
}

export type AddressSource = 'node-override' | 'host-template' | 'InternalIP' | 'ExternalIP' | 'Hostname';

export interface NodeTarget {
  nodeName: string;
  host: string;
  addressSource: AddressSource;
  port?: number;
  user?: string;
  jumpHost?: string;
  sudo: boolean;
}

export class NodeTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeTargetError';
  }
}

// Host names, IPv4/IPv6 literals (with zone), ssh_config aliases. No whitespace, quotes, or a leading '-'
// that a tool could read as an option.
const safeHost = /^[A-Za-z0-9_][A-Za-z0-9._:%@-]*$/;

function checkHost(value: string, nodeName: string, what: string): string {
  if (value.length > 253 || !safeHost.test(value)) {
    throw new NodeTargetError(`node ${JSON.stringify(nodeName)}: ${what} ${JSON.stringify(value)} is not a usable host name or address`);
  }
  return value;
}

function address(node: KubeNode, type: string): string | undefined {
  const found = node.status?.addresses?.find((a) => a.type === type && a.address !== undefined && a.address !== '');
  return found?.address;
}

function fillTemplate(template: string, node: KubeNode, nodeName: string): string {
  return template.replace(/\{(\w+)\}/g, (token, name: string) => {
    const value =
      name === 'name' ? nodeName : name === 'internalIP' ? address(node, 'InternalIP') : name === 'externalIP' ? address(node, 'ExternalIP') : name === 'hostname' ? address(node, 'Hostname') : undefined;
    if (value === undefined) throw new NodeTargetError(`node ${JSON.stringify(nodeName)}: hostTemplate token ${token} has no value`);
    return value;
  });
}

export function resolveNodeTarget(node: KubeNode, context: string, settings: NodeAccessSettings | undefined): NodeTarget {
  const nodeName = node.metadata?.name;
  if (nodeName === undefined || nodeName === '') throw new NodeTargetError('node object has no metadata.name');
  const cluster = settings?.clusters[context] ?? {};
  const override = cluster.nodes?.[nodeName] ?? {};

  let host: string | undefined;
  let addressSource: AddressSource | undefined;
  if (override.host !== undefined) {
    host = override.host;
    addressSource = 'node-override';
  } else if (cluster.hostTemplate !== undefined) {
    host = fillTemplate(cluster.hostTemplate, node, nodeName);
    addressSource = 'host-template';
  } else {
    for (const type of ['InternalIP', 'ExternalIP', 'Hostname'] as const) {
      host = address(node, type);
      if (host !== undefined) {
        addressSource = type;
        break;
      }
    }
  }
  if (host === undefined || addressSource === undefined) {
    throw new NodeTargetError(`node ${JSON.stringify(nodeName)} reports no InternalIP, ExternalIP or Hostname address; set a host for it in the node access settings`);
  }
  const port = override.port ?? cluster.port;
  const user = override.user ?? cluster.user;
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
    throw new NodeTargetError(`node ${JSON.stringify(nodeName)}: invalid port ${String(port)}`);
  }
  return {
    nodeName,
    host: checkHost(host, nodeName, addressSource === 'node-override' || addressSource === 'host-template' ? 'configured host' : `${addressSource} address`),
    addressSource,
    sudo: cluster.sudo === true,
    ...(port !== undefined ? { port } : {}),
    ...(user !== undefined ? { user } : {}),
    ...(cluster.jumpHost !== undefined ? { jumpHost: cluster.jumpHost } : {}),
  };
}

/** The request handed to ssh_config resolution (the host may be an alias there). */
export function toHostRequest(target: NodeTarget, identityFiles: readonly string[] = []): HostRequest {
  return {
    host: target.host,
    ...(target.user !== undefined ? { user: target.user } : {}),
    ...(target.port !== undefined ? { port: target.port } : {}),
    ...(target.jumpHost !== undefined ? { jumpHost: target.jumpHost } : {}),
    ...(identityFiles.length > 0 ? { identityFiles } : {}),
  };
}
