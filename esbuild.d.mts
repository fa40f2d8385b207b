// Types of what esbuild.mjs exports, for the TypeScript that imports it (test/unit/esbuild.*.test.ts, test/unit/host/activationProbe.test.ts, bench/activation.ts).
import type { BuildOptions } from 'esbuild';

export function extensionTargets(options: { production: boolean; outdir?: string }): BuildOptions[];
export function cliTargets(options: { production: boolean; outdir?: string }): BuildOptions[];

/** The first statement of dist/extension.js: the activation probe's wall-time and thread-CPU start marks. */
export const ACTIVATION_BANNER: string;
