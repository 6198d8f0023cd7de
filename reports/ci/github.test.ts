import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../kernel/results.ts';
import { createRedactor } from '../redact.ts';
import { annotations, escapeData, escapeProperty, jobSummary, reportToGithub, SUMMARY_BUDGET } from './github.ts';

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-gh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run: RunSummary = {
  runId: 'r1',
  verdict: 'failed',
  target: 'http://t/v1',
  profile: 'p',
  startedAt: new Date(0).toISOString(),
  durationMs: 1000,
  parts: [
    {
      part: 'conformance', name: 'conformance', status: 'failed', startedAt: new Date(0).toISOString(), durationMs: 900, figures: {},
      checks: [
        { id: 'a.b', title: 'a rule holds', requirements: ['AUTH-4', 'SHAPE-error'], status: 'failed', durationMs: 1, notes: [], message: 'x: expected 401 / received 403\nsecond line 100% | key ck_test_SECRETVALUE1', reproduction: { exchanges: [{ method: 'GET', url: 'http://t/v1/rates', status: 403, requestHeaders: {}, responseHeaders: {}, durationMs: 1, credential: 'LENDCHECK_API_KEY' }], omitted: 0, vars: {}, deliveries: [] } },
        { id: 'a.c', title: 'another', requirements: [], status: 'passed', durationMs: 1, notes: [] },
      ],
    },
  ],
};

describe('GitHub Actions output', () => {
  it('escapes workflow command data and properties as GitHub does', () => {
    expect(escapeData('50%\r\nnext')).toBe('50%25%0D%0Anext');
    expect(escapeProperty('a: b, c')).toBe('a%3A b%2C c');
  });

  it('one ::error per failed check, on one line, titled with the check and its requirements', () => {
    expect(annotations(run)).toEqual(['::error title=lendcheck conformance/a.b [AUTH-4%2C SHAPE-error]::x: expected 401 / received 403%0Asecond line 100%25 | key ck_test_SECRETVALUE1']);
  });

  it('a summary with the verdict, the steps and each failure folded with its reproduction', () => {
    const md = jobSummary(run, '/r/index.html');
    expect(md).toMatch(/^## lendcheck: ❌ FAIL\n/);
    expect(md).toContain('| conformance | ❌ FAIL | 1 | 1 | 0 | 900 ms |  |');
    expect(md).toMatch(/<details>\n<summary><b>conformance\/a\.b<\/b> — breaks `AUTH-4`, `SHAPE-error`: x: expected 401 \/ received 403<\/summary>\n\n```text\n[\s\S]*```sh\n# reproduce; set \$LENDCHECK_API_KEY[\s\S]*curl -sS -i -w '\\n' 'http:\/\/t\/v1\/rates' -H "Authorization: Bearer \$LENDCHECK_API_KEY"\n[\s\S]*<\/details>/);
  });

  it('only under GITHUB_ACTIONS; appends to $GITHUB_STEP_SUMMARY and masks keys in both', () => {
    const lines: string[] = [];
    const file = join(dir, 'summary.md');
    expect(reportToGithub(run, createRedactor(), { env: {}, out: (l) => lines.push(l) })).toBe(false);
    expect(lines).toEqual([]);
    expect(reportToGithub(run, createRedactor(), { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file }, out: (l) => lines.push(l) })).toBe(true);
    reportToGithub(run, createRedactor(), { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file }, out: () => {} });
    const md = readFileSync(file, 'utf8');
    expect(md.match(/^## lendcheck/gm)).toHaveLength(2);
    expect(lines).toHaveLength(1);
    for (const t of [md, ...lines]) expect(t).not.toContain('SECRETVALUE1');
  });

  it('keeps within GitHub\'s summary size: past the budget, reproductions stay in the report', () => {
    const big = structuredClone(run);
    const c = big.parts[0].checks[0];
    c.reproduction!.exchanges = [...Array(50)].map((_, i) => ({ ...c.reproduction!.exchanges[0], url: `http://t/v1/p${i}`, requestBody: 'x'.repeat(4000) }));
    big.parts[0].checks = [...Array(10)].map((_, i) => ({ ...c, id: `c${i}` }));
    const md = jobSummary(big);
    expect(Buffer.byteLength(md)).toBeLessThan(SUMMARY_BUDGET);
    expect(md).toContain('The reproductions did not fit in a job summary');
    expect(md.match(/<details>/g)).toHaveLength(10);
  });
});
