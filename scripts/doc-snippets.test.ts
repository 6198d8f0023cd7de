import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PARTNER_ENDPOINTS } from '../contract/endpoint-bodies.ts';
import { SNIPPET_PAGES, snippetsOf, withoutListen, writeSnippets } from './testing/doc-snippets.ts';

// Every TypeScript example of README.md and docs/partners.md is a test (scripts/testing/doc-snippets.ts):
// type-checked strictly as a partner's project would, run under Vitest, and run again with its msw
// server never listening, when each must fail. An example that passes when nothing reached the
// sandbox (the README's once did: no server.listen(), every fetch ENOTFOUND, and its
// `findings toEqual([])` still held) is caught here.

const root = fileURLToPath(new URL('..', import.meta.url));
const snippets = SNIPPET_PAGES.flatMap((p) => snippetsOf(root, p));
const containers = process.env.LENDCHECK_CONTAINERS === '1';
const runnable = snippets.filter((s) => containers || !s.needsContainer);

mkdirSync(join(root, '.tmp'), { recursive: true });
const tmp = mkdtempSync(join(root, '.tmp', 'doc-snippets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A child process's environment without the parent Vitest's own variables. */
const childEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'TINYPOOL_WORKER_ID'));

interface JsonReport { testResults: { name: string; status: string; assertionResults: { status: string; title: string }[]; message?: string }[] }
/** Runs the test files in `dir` under the snippets' Vitest config; per file, its status and passed tests. */
function vitest(dir: string, files: string[]): Map<string, { status: string; passed: number; failed: number; message: string }> {
  const out = join(dir, 'result.json');
  const r = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(root, 'scripts/testing/doc-snippets.vitest.config.ts'), '--reporter=json', `--outputFile=${out}`, ...files], {
    cwd: root,
    env: { ...childEnv(), DOC_SNIPPETS_DIR: dir },
    encoding: 'utf8',
    timeout: 240_000,
  });
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
  } catch {
    throw new Error(`vitest wrote no result (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  return new Map(
    report.testResults.map((t) => [
      t.name.slice(dir.length + 1),
      {
        status: t.status,
        passed: t.assertionResults.filter((a) => a.status === 'passed').length,
        failed: t.assertionResults.filter((a) => a.status === 'failed').length + (t.status === 'failed' && !t.assertionResults.length ? 1 : 0),
        message: [t.message ?? '', ...t.assertionResults.filter((a) => a.status !== 'passed').map((a) => `${a.title}: ${a.status}`)].join('\n'),
      },
    ]),
  );
}

describe('the TypeScript examples of README.md and docs/partners.md', () => {
  it('finds them: the README\'s partner test, and the partner page\'s', () => {
    expect(snippets.filter((s) => s.page === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(snippets.filter((s) => s.page === 'docs/partners.md').length).toBeGreaterThanOrEqual(3);
  });

  it.each(snippets.map((s) => [`${s.page}:${s.line}`, s] as const))('%s is a whole test file: imports lendcheck, has a test, asserts', (_n, s) => {
    expect(s.code).toMatch(/from 'lendcheck(\/[a-z]+)?'/);
    expect(s.code).toMatch(/\bit\(/);
    expect(s.code).toMatch(/\bexpect\(/);
  });

  it('type-check under strict TypeScript, through the package\'s own exports', () => {
    const dir = join(tmp, 'typecheck');
    writeSnippets(root, dir, snippets);
    const r = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    expect(`${r.stdout}${r.stderr}`.replaceAll(dir, '<snippets>'), 'tsc').toBe('');
    expect(r.status).toBe(0);
  }, 300_000);

  it(`run, every test in each passing (${runnable.length} of ${snippets.length}; ${containers ? '' : 'those needing a container engine run with LENDCHECK_CONTAINERS=1'})`, () => {
    const dir = join(tmp, 'run');
    writeSnippets(root, dir, runnable);
    const results = vitest(dir, runnable.map((s) => s.file));
    for (const s of runnable) {
      const r = results.get(s.file);
      expect(r, `${s.page}:${s.line} ran`).toBeDefined();
      expect(r!.failed, `${s.page}:${s.line}: ${r!.message}`).toBe(0);
      expect(r!.passed, `${s.page}:${s.line}: its tests passed`).toBeGreaterThan(0);
    }
  }, 300_000);

  it('fail, each one, when its msw server does not listen (no request reaches the sandbox)', () => {
    const mutants = runnable.flatMap((s) => {
      const code = withoutListen(s.code);
      return code === null ? [] : [{ ...s, code }];
    });
    // Each example that runs without a container is an msw one: each must have the listen call to take away.
    expect(mutants.map((m) => `${m.page}:${m.line}`)).toEqual(runnable.filter((s) => !s.needsContainer).map((s) => `${s.page}:${s.line}`));
    const dir = join(tmp, 'no-listen');
    writeSnippets(root, dir, mutants);
    const results = vitest(dir, mutants.map((s) => s.file));
    for (const m of mutants) expect(results.get(m.file)?.failed ?? 0, `${m.page}:${m.line} without server.listen() still passed`).toBeGreaterThan(0);
  }, 300_000);

  it('docs/partners.md lists every endpoint of lendcheck/types', () => {
    const page = readFileSync(join(root, 'docs/partners.md'), 'utf8');
    for (const id of Object.keys(PARTNER_ENDPOINTS)) expect(page, id).toContain(`| \`${id}\` |`);
  });
});
