// One log line that should hold a JSON object (a kubelet JSON log line, a `journalctl -o json` entry):
// the object, or undefined when the text is not one. Callers check the fields they need.

export function parseJsonObjectLine(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
