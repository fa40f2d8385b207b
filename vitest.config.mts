import { defineConfig } from 'vitest/config';

// Two projects: `unit` (pure, fast, no processes) and `integration` (real sshd, containerd, loopback API
// stand-in). The e2e suite in a real VS Code runs outside vitest (test/e2e/run.mjs).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts'],
          environment: 'node',
          alias: { vscode: new URL('./test/stubs/vscode.ts', import.meta.url).pathname },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // Brings up the real node stack (sshd, containerd, pods) once for the run: test/support/node-stack.sh;
          // the real cluster (test/support/real-cluster.sh) is started by the first realk8s test that needs it.
          globalSetup: ['test/integration/globalSetup.ts', 'test/integration/realk8s/globalSetup.ts'],
        },
      },
    ],
  },
});
