// The text of a thrown value, for a log line or a message to the user: an Error's message, anything else
// as String() gives it (a library may throw a string or a plain object).

export function errorText(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
