import { describe, expect, it } from 'vitest';
import type { CheckResult, PartResult } from '../../kernel/results.ts';
import { paint } from './color.ts';
import { failedCheckBlocks, failedCheckLines, REPRO_LINES_ON_CONSOLE } from './failed-lines.ts';

// The console list of failed checks: each with its reproduction under it, the key as its
// variable, and bounded (issue 50: the curl had left the console for failures.json only).

const KEY = 'ck_test_0123456789abcdef';
const exchange = (i: number) => ({ method: 'GET', url: `http://127.0.0.1:1/v1/positions/p${i}`, requestHeaders: { authorization: `Bearer ${KEY}` }, credential: 'LENDCHECK_API_KEY', status: 404, responseBody: '{"error":{"code":"position_not_found"}}', durationMs: 1 });
const check = (id: string, exchanges: number): CheckResult =>
  ({ id, title: id, requirements: ['ERR-1'], status: 'failed', durationMs: 1, message: 'expected 404 / received 200', notes: [], reproduction: { exchanges: Array.from({ length: exchanges }, (_, i) => exchange(i)), omitted: 0, vars: {}, deliveries: [] } }) as unknown as CheckResult;
const part = (checks: CheckResult[]) => ({ part: 'conformance', name: 'conformance', status: 'failed', checks, figures: {}, startedAt: '', durationMs: 1 }) as unknown as PartResult;

describe('failed checks on the console, each with its curl', () => {
  it('under each line its curl, the key as $LENDCHECK_API_KEY', () => {
    const blocks = failedCheckBlocks([part([check('a', 1), check('b', 1)])], paint(false));
    expect(blocks.map((b) => b[0])).toEqual(failedCheckLines([part([check('a', 1), check('b', 1)])], paint(false)));
    for (const b of blocks) {
      const text = b.join('\n');
      expect(text).toMatch(/^ {6}curl -sS -i .*'http:\/\/127\.0\.0\.1:1\/v1\/positions\/p0' -H "Authorization: Bearer \$LENDCHECK_API_KEY"$/m);
      expect(text).not.toContain(KEY);
    }
  });

  it('a long reproduction is cut on the console, saying where the rest is', () => {
    const [b] = failedCheckBlocks([part([check('many', 30)])], paint(false));
    expect(b.length).toBe(1 + REPRO_LINES_ON_CONSOLE + 1);
    expect(b.at(-1)).toMatch(/more lines in failures\.json and the report$/);
  });
});
