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

  it('a long reproduction is cut on the console to its end: the failing request shown, the earlier ones pointed at', () => {
    const [b] = failedCheckBlocks([part([check('many', 30)])], paint(false));
    expect(b.length).toBeLessThanOrEqual(1 + REPRO_LINES_ON_CONSOLE + 1);
    const text = b.join('\n');
    // The exchanges end at the failure: the last one (p29) is on the console with its answer, the first is not.
    expect(text).toContain("/v1/positions/p29'");
    expect(b.at(-1)).toMatch(/^ {6}# {3}→ 404 /);
    expect(text).not.toContain("/v1/positions/p0'");
    expect(b[1]).toMatch(/# reproduce; set \$LENDCHECK_API_KEY/);
    expect(b[2]).toMatch(/# … \d+ earlier lines \(the requests before these\) in failures\.json and the report$/);
    // Whole steps only: the first curl line shown follows the note, never an orphan answer line.
    expect(b[3]).toMatch(/^ {6}curl /);
  });

  it('a reproduction without curl lines (a timeline) shows its start and says where the rest is', () => {
    const c = { ...check('timeline', 0), reproduction: { exchanges: [], omitted: 0, vars: {}, deliveries: [], timeline: Array.from({ length: 30 }, (_, i) => `attempt ${i}`).join('\n') } } as unknown as CheckResult;
    const [b] = failedCheckBlocks([part([c])], paint(false));
    expect(b.length).toBe(1 + REPRO_LINES_ON_CONSOLE + 1);
    expect(b[1]).toMatch(/# timeline:$/);
    expect(b.at(-1)).toMatch(/more lines in failures\.json and the report$/);
  });

  it('a short reproduction is shown whole', () => {
    const [b] = failedCheckBlocks([part([check('few', 3)])], paint(false));
    expect(b.length).toBe(1 + 1 + 3 * 2);
    expect(b.join('\n')).not.toMatch(/in failures\.json/);
  });
});
