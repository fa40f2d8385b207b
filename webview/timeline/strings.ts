// The page's strings: the host localizes them and sends them in `init`.

let strings: Record<string, string> = {};

export function setStrings(next: Record<string, string>): void {
  strings = next;
}

export const t = (key: string, ...args: Array<string | number>): string => args.reduce<string>((text, arg, i) => text.replace(`{${i}}`, String(arg)), strings[key] ?? key);
