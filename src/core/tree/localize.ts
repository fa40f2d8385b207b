// Pure tree code produces user-facing text, but may not import vscode. The host passes vscode.l10n.t;
// tests and the CLI use englishText, which fills {0}-style placeholders the same way l10n.t does.

/** Same calling convention as vscode.l10n.t(message, ...args): the English message is the key. */
export type Localize = (message: string, ...args: Array<string | number>) => string;

export const englishText: Localize = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (placeholder, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? placeholder : String(value);
  });
