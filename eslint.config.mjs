import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { localPlugin } from './eslint/noImportCycle.mjs';

/** No command sets V8 flags: they are process-wide, and a flag the runtime does not know prints an error. */
const noV8Flags = ['node:v8', 'v8'].map((name) => ({ name, importNames: ['setFlagsFromString'], message: 'No V8 flags: they act on the whole process and differ between Node versions (issue 27).' }));

const noVscode = {
  paths: [{ name: 'vscode', message: 'Only src/host and src/extension.ts may import vscode (see README, Architecture).' }, ...noV8Flags],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.code-server/**', '.node-stack/**', 'test-results/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true } }],
    },
  },
  {
    files: ['src/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'AbortSignal',
          property: 'timeout',
          message: 'On Node 20 a garbage collection can drop AbortSignal.timeout() inside AbortSignal.any() and the deadline never fires: use timeoutSignal / withDeadline (src/core/util/deadlineSignal.ts).',
        },
      ],
    },
  },
  {
    // No module reaches itself through its imports (eslint/noImportCycle.mjs).
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    plugins: { local: localPlugin },
    rules: { 'local/no-import-cycle': 'error' },
  },
  {
    // The architecture boundary: the editor API stays in the host layer (every other folder of src, and any new one).
    files: ['src/**', 'webview/**'],
    ignores: ['src/host/**', 'src/extension.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', noVscode] },
  },
  {
    files: ['src/host/**', 'src/extension.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: noV8Flags }] },
  },
  {
    files: ['src/core/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          ...noVscode,
          patterns: [
            { group: ['**/host/**', '**/infra/**'], message: 'src/core is pure: it may not import infra or host.' },
            // The protocols in src/shared are built on core's types, never the other way round.
            { group: ['**/shared/**'], message: 'src/core may not import src/shared: the protocol imports core, not core the protocol.' },
            { group: ['node:*', 'fs', 'net', 'child_process', 'http', 'http2', 'os'], message: 'src/core does no I/O.' },
          ],
        },
      ],
    },
  },
  {
    files: ['webview/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Two entries: spreading disableTypeChecked into the same object would replace languageOptions.
  { files: ['**/*.mjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: { ...globals.node } } },
);
