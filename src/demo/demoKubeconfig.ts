// Writes the kubeconfig the demo and the e2e hand to VS Code: an ordinary kubeconfig, so the extension
// reaches the stand-in exactly as it would reach a real cluster. Pure: returns the YAML text.

export interface KubeconfigEntry {
  context: string;
  /** e.g. http://127.0.0.1:43123 */
  server: string;
  /** Bearer token for the user entry; omitted for an open server. */
  token?: string;
  namespace?: string;
}

/** YAML double-quoted scalar: safe for any name, URL or token (JSON strings are valid YAML). */
function q(value: string): string {
  return JSON.stringify(value);
}

export function demoKubeconfigYaml(entries: readonly KubeconfigEntry[], currentContext?: string): string {
  if (entries.length === 0) throw new Error('demoKubeconfigYaml: at least one context is required');
  const names = new Set<string>();
  for (const e of entries) {
    if (e.context.trim() === '') throw new Error('demoKubeconfigYaml: a context name is empty');
    if (names.has(e.context)) throw new Error(`demoKubeconfigYaml: context "${e.context}" appears twice`);
    names.add(e.context);
    if (!/^https?:\/\/[^\s/]+/u.test(e.server)) throw new Error(`demoKubeconfigYaml: server "${e.server}" of context "${e.context}" is not an http(s) URL`);
  }
  const current = currentContext ?? entries[0]?.context ?? '';
  if (!names.has(current)) throw new Error(`demoKubeconfigYaml: current context "${current}" is not among the contexts`);

  const lines: string[] = ['apiVersion: v1', 'kind: Config', 'preferences: {}', `current-context: ${q(current)}`, 'clusters:'];
  for (const e of entries) lines.push(`- name: ${q(e.context)}`, '  cluster:', `    server: ${q(e.server)}`, '    extensions: [{ name: pleg-doctor.demo, extension: { nodesHaveSsh: false } }]');
  lines.push('users:');
  for (const e of entries) {
    lines.push(`- name: ${q(`${e.context}-user`)}`);
    lines.push(e.token === undefined ? '  user: {}' : `  user:\n    token: ${q(e.token)}`);
  }
  lines.push('contexts:');
  for (const e of entries) {
    lines.push(`- name: ${q(e.context)}`, '  context:', `    cluster: ${q(e.context)}`, `    user: ${q(`${e.context}-user`)}`);
    if (e.namespace !== undefined) lines.push(`    namespace: ${q(e.namespace)}`);
  }
  return `${lines.join('\n')}\n`;
}
