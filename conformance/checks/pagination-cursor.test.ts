import { describe, expect, it } from 'vitest';
import { defaultProfile, routeOfRequest } from '../../contract/index.ts';
import { runAgainst } from '../testing/mutants/run.ts';

// Part 2 types nextCursor only as "string": a target answering nextCursor "" on the last page is
// legal. z.string().min(1) refused it before (issue 47, cause 3); now it is a profile note.

describe('nextCursor "" on the last page', () => {
  it('passes the walk, with the last-page form as a note', { timeout: 60_000 }, async () => {
    const result = await runAgainst(
      async (req, next) => {
        const res = await next(req);
        if (routeOfRequest(defaultProfile, req)?.id !== 'positions.list' || res.status !== 200) return res;
        const body = (await res.json()) as { hasMore?: boolean; nextCursor?: unknown };
        if (body.hasMore === false) body.nextCursor = '';
        const headers = new Headers(res.headers);
        headers.delete('content-length');
        return new Response(JSON.stringify(body), { status: res.status, headers });
      },
      { only: ['pagination.walk', 'pagination.default-limit'] },
    );
    expect(result.checks.map((c) => [c.id, c.status, c.message])).toEqual([
      ['pagination.default-limit', 'passed', undefined],
      ['pagination.walk', 'passed', undefined],
    ]);
    expect(result.checks.flatMap((c) => c.notes).join(' ')).toMatch(/pagination\.lastPageCursor.*empty string/);
  });
});
