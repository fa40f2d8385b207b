// `plegDoctor.contexts.exclude`: context names or simple globs (`*` any run, `?` one character).

function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

export function isContextExcluded(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => p.trim() !== '' && globToRegExp(p.trim()).test(name));
}
