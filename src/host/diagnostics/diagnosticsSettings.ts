// The `plegDoctor.diagnostics.*` settings, validated from whatever JSON the user wrote (VS Code's schema
// only warns in the editor). Pure, so every rule is unit-tested; the host reads the raw values in
// diagnosticsConfig.ts. A bad value blocks the diagnosis with a message naming the setting, rather than
// being replaced by a default the user did not ask for (a 0 s deadline read as 15 s would hide the typo).

export const DIAGNOSTICS_SECTION = 'plegDoctor.diagnostics';

export const DiagnosticsKeys = {
  nodeSide: 'nodeSide',
  useNodeProxy: 'useNodeProxy',
  proxyTimeoutSeconds: 'proxyTimeoutSeconds',
  metricsIntervalSeconds: 'metricsIntervalSeconds',
} as const;

export type NodeSideSetting = 'auto' | 'always' | 'never';
export const NODE_SIDE_VALUES: readonly NodeSideSetting[] = ['auto', 'always', 'never'];

export interface DiagnosticsConfig {
  nodeSide: NodeSideSetting;
  useNodeProxy: boolean;
  proxyTimeoutMs: number;
  /** 0: one /metrics scrape only. */
  metricsIntervalMs: number;
}

export const DIAGNOSTICS_DEFAULTS: DiagnosticsConfig = { nodeSide: 'auto', useNodeProxy: true, proxyTimeoutMs: 15_000, metricsIntervalMs: 5_000 };

export const PROXY_TIMEOUT_RANGE = { min: 1, max: 300 } as const;
export const METRICS_INTERVAL_RANGE = { min: 0, max: 60 } as const;

export interface DiagnosticsSettingsProblem {
  /** Full setting id, e.g. `plegDoctor.diagnostics.proxyTimeoutSeconds`. */
  setting: string;
  message: string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** `raw` holds the values by key (`nodeSide`, …); undefined means unset, so the default applies. */
export function validateDiagnosticsConfig(raw: Readonly<Record<string, unknown>>): { config: DiagnosticsConfig; problems: DiagnosticsSettingsProblem[] } {
  const problems: DiagnosticsSettingsProblem[] = [];
  const problem = (key: string, rule: string, value: unknown): void => {
    const setting = `${DIAGNOSTICS_SECTION}.${key}`;
    problems.push({ setting, message: `${setting} ${rule}, got ${describe(value)}` });
  };
  const config: DiagnosticsConfig = { ...DIAGNOSTICS_DEFAULTS };

  const nodeSide = raw[DiagnosticsKeys.nodeSide];
  if (nodeSide !== undefined) {
    if (typeof nodeSide === 'string' && (NODE_SIDE_VALUES as readonly string[]).includes(nodeSide)) config.nodeSide = nodeSide as NodeSideSetting;
    else problem(DiagnosticsKeys.nodeSide, 'must be "auto", "always" or "never"', nodeSide);
  }

  const useNodeProxy = raw[DiagnosticsKeys.useNodeProxy];
  if (useNodeProxy !== undefined) {
    if (typeof useNodeProxy === 'boolean') config.useNodeProxy = useNodeProxy;
    else problem(DiagnosticsKeys.useNodeProxy, 'must be true or false', useNodeProxy);
  }

  const seconds = (key: string, range: { min: number; max: number }): number | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max) return Math.round(value * 1000);
    problem(key, `must be a number of seconds from ${range.min} to ${range.max}`, value);
    return undefined;
  };
  const timeout = seconds(DiagnosticsKeys.proxyTimeoutSeconds, PROXY_TIMEOUT_RANGE);
  if (timeout !== undefined) config.proxyTimeoutMs = timeout;
  const interval = seconds(DiagnosticsKeys.metricsIntervalSeconds, METRICS_INTERVAL_RANGE);
  if (interval !== undefined) config.metricsIntervalMs = interval;

  return { config, problems };
}

export type NodeSideDecision = { run: true } | { run: false; reason: string };

/**
 * Whether the diagnosis reads the node over SSH. "auto" does so only for contexts the user configured in
 * `plegDoctor.nodeAccess.clusters`: a diagnosis must never open an SSH connection the user did not set up.
 */
export function decideNodeSide(setting: NodeSideSetting, context: string, contextHasNodeAccess: boolean): NodeSideDecision {
  switch (setting) {
    case 'never':
      return { run: false, reason: `${DIAGNOSTICS_SECTION}.nodeSide is "never"` };
    case 'always':
      return { run: true };
    case 'auto':
      return contextHasNodeAccess
        ? { run: true }
        : { run: false, reason: `context "${context}" has no entry in plegDoctor.nodeAccess.clusters (${DIAGNOSTICS_SECTION}.nodeSide is "auto")` };
  }
}
