// Types of what noImportCycle.mjs exports, for the TypeScript that imports it (test/unit/eslint/noImportCycle.test.ts).
import type { ESLint, Rule } from 'eslint';

export const noImportCycle: Rule.RuleModule;
export const localPlugin: ESLint.Plugin;
