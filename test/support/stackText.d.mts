// Types of test/support/stackText.mjs for the TypeScript tests.
export function parseKeyValueLines(text: string): Record<string, string>;
export function freePort(): Promise<number>;
