import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
  paths: [{ name: 'vscode', message: 'Only src/host and src/extension.ts may import vscode (see README, Architecture).' }],
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
    // The architecture boundary: the editor API stays in the host layer.
    files: ['src/core/**', 'src/infra/**', 'src/server/**', 'src/shared/**', 'src/cli/**', 'src/demo/**', 'webview/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', noVscode] },
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
