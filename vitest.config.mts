import { defineConfig } from 'vitest/config';

// Projects: `unit` (pure, fast, no processes), `integration` (real sshd, containerd, loopback API stand-in,
// and the real Kubernetes 1.26 cluster of test/integration/realk8s/), and one project per other cluster kit
// (`integration-1.36`, `integration-1.22`: test/integration/realk8s-<kit>/). The kits share their ports, so
// `npm run test:integration` runs these projects one after the other, never together. The e2e suite in a
// real VS Code runs outside vitest (test/e2e/run.mjs).
const OTHER_KITS = ['1.36', '1.22'] as const;

/** A project over test/integration/realk8s-<kit>/ on that kit's real cluster (test/support/real-cluster.sh). */
function kitProject(kit: (typeof OTHER_KITS)[number]) {
  return {
    test: {
      name: `integration-${kit}`,
      include: [`test/integration/realk8s-${kit}/**/*.test.ts`],
      environment: 'node' as const,
      env: { PLEG_REAL_K8S_KIT: kit },
      testTimeout: 120_000,
      hookTimeout: 180_000,
      fileParallelism: false,
      globalSetup: [`test/integration/realk8s-${kit}/globalSetup.ts`],
    },
  };
}

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
          exclude: OTHER_KITS.map((kit) => `test/integration/realk8s-${kit}/**`),
          environment: 'node',
          env: { PLEG_REAL_K8S_KIT: '1.26' },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // Brings up the real node stack (sshd, containerd, pods) once for the run: test/support/node-stack.sh;
          // the real cluster (test/support/real-cluster.sh) is started by the first realk8s test that needs it.
          globalSetup: ['test/integration/globalSetup.ts', 'test/integration/realk8s/globalSetup.ts'],
        },
      },
      ...OTHER_KITS.map(kitProject),
    ],
  },
});
