import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['test/integration/kube/**/*.test.ts', 'test/integration/apiServer/**/*.test.ts', 'test/unit/kube/**/*.test.ts'], environment: 'node', testTimeout: 60_000, fileParallelism: false } });
