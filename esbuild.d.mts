// Types of what esbuild.mjs exports, for the TypeScript that imports it (test/unit/build, bench/activation.ts).
import type { BuildOptions } from 'esbuild';

export function extensionTargets(options: { production: boolean; outdir?: string }): BuildOptions[];
