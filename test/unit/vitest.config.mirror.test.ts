// The unit and property tiers mirror the tree they test: a test of src/core/parse/logReader.ts is
// test/unit/core/parse/logReader.test.ts, and a second file on one aspect of it is logReader.<aspect>.test.ts beside it.
// Files that are not under src/ follow the same rule from the repository's root (webview/…, eslint/…,
// package.json, esbuild.mjs, this config). A newcomer finds a module's tests at its path, and a test whose
// module is renamed or deleted fails here instead of lingering under a name nothing has.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.json', '.yaml'];

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The module a test file is named after: the longest dotted prefix of its name that is a file at its folder's path. */
function moduleOf(testPath: string): string | undefined {
  const [, ...rest] = testPath.split('/'); // drop the tier (unit | property)
  const name = rest.pop()!.replace(/\.test\.ts$/, '');
  const folder = rest.join('/');
  const parts = name.split('.');
  for (let n = parts.length; n > 0; n--) {
    const stem = parts.slice(0, n).join('.');
    for (const base of [join(ROOT, 'src', folder), join(ROOT, folder)]) {
      for (const ext of EXTENSIONS) {
        const candidate = join(base, stem + ext);
        if (existsSync(candidate)) return relative(ROOT, candidate);
      }
    }
  }
  return undefined;
}

describe('test layout', () => {
  it('names every unit and property test after a module at its own path', () => {
    const tests = ['unit', 'property'].flatMap((tier) => testFiles(join(ROOT, 'test', tier)).map((f) => relative(join(ROOT, 'test'), f)));
    expect(tests.length).toBeGreaterThan(150);
    expect(tests.filter((t) => moduleOf(t) === undefined)).toEqual([]);
  });

  it('finds the module of a mirrored test and none for a stray one', () => {
    expect(moduleOf('unit/core/parse/logReader.k3s122.test.ts')).toBe('src/core/parse/logReader.ts');
    expect(moduleOf('unit/webview/timeline/sessionSeries.lanes.test.ts')).toBe('webview/timeline/sessionSeries.ts');
    expect(moduleOf('unit/package.commands.test.ts')).toBe('package.json');
    expect(moduleOf('unit/parse/klog.test.ts')).toBeUndefined();
    expect(moduleOf('unit/core/diagnose/stuckPodNamed.test.ts')).toBeUndefined();
  });
});
