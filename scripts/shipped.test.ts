import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// One meaning of "shipped" (scripts/shipped.cjs): the files the build's tsc project compiles are
// exactly the tracked sources the lint's rules call shipped, and no shipped file pulls a test,
// drill or bench file into the package through an import.

const root = fileURLToPath(new URL('..', import.meta.url));
const shipped = createRequire(import.meta.url)('./shipped.cjs') as {
  COMPILED: string[];
  notShipped(rel: string): boolean;
  shippedProject(): object;
};
// Beside the build's own (.tmp/), so the project's relative paths hold; a folder of its own so
// a build running meanwhile is not disturbed.
mkdirSync(join(root, '.tmp'), { recursive: true });
const tmp = mkdtempSync(join(root, '.tmp', 'shipped-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('what ships (scripts/shipped.cjs)', () => {
  it('the build compiles exactly the files the lint calls shipped', () => {
    const project = join(tmp, 'tsconfig.json');
    // The project is written for a file one folder below the root; this one is two.
    const text = JSON.stringify(shipped.shippedProject()).replaceAll('"../', '"../../');
    writeFileSync(project, text);
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const listed = execFileSync(process.execPath, [tsc, '-p', project, '--listFilesOnly'], { encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\n')
      .filter(Boolean)
      .map((f) => relative(root, resolve(f)))
      .filter((f) => !f.startsWith('..') && !f.includes('node_modules/'));
    // Tracked or new (not ignored), and still there: the working tree, committed or not.
    const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...shipped.COMPILED], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(ts|js|mjs|cjs)$/.test(f) && existsSync(join(root, f)));
    const lintShipped = tracked.filter((f) => !shipped.notShipped(f)).sort();

    expect(listed.filter((f) => shipped.notShipped(f)), 'test, drill or bench files the shipped code imports').toEqual([]);
    expect([...new Set(listed)].sort()).toEqual(lintShipped);
  }, 120_000);

  it('leaves the moved self-tests out and keeps the conformance suite in', () => {
    for (const f of ['conformance/testing/mutants/kit.ts', 'sandbox/testing/endpoints/bodies.ts', 'cli/testing/run-in-process.ts', 'bench/concurrency-measure.ts', 'kernel/outcome.test.ts']) {
      expect(shipped.notShipped(f), f).toBe(true);
    }
    for (const f of ['conformance/suite/conformance.suite.ts', 'conformance/suite/run.ts', 'reports/fixture.ts', 'index.ts']) {
      expect(shipped.notShipped(f), f).toBe(false);
    }
  });
});
