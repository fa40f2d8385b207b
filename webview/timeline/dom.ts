// The one DOM helper both panes build their markup with.

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

/**
 * An empty element, found again by its id, that a screen reader announces when its text changes: `status`
 * politely, `alert` at once.
 */
export function liveRegion<K extends keyof HTMLElementTagNameMap>(tag: K, id: string, className: string, role: 'status' | 'alert'): HTMLElementTagNameMap[K] {
  const node = el(tag, '', className);
  node.id = id;
  node.setAttribute('role', role);
  return node;
}
