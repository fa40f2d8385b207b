// Types of what scripts/l10n.mjs exports, for test/unit/package.commands.test.ts.
export const L10N_SOURCES: string[];
export const BUNDLE: string;
export function asVscodeL10n(source: string): string;
export function generateBundle(root?: string): Promise<{ bundle: Record<string, string>; files: string[] }>;
export function bundleText(bundle: Record<string, string>): string;
