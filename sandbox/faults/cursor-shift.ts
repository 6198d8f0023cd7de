import { z } from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../../contract/index.ts';
import type { ListQuery, ListRow } from '../engine/engine.ts';
import { listItemView } from '../engine/views.ts';
import { invalid } from '../answer/errors.ts';
import { engineFault } from './fault.ts';

// A list cursor that is a row offset instead of a position in the order: a position placed
// while a partner walks the list (newest first) pushes every later row one page slot down,
// so the next page repeats the last item of the one before. (With the profile's order
// created-asc new rows land at the end, where an offset cursor happens to be right.)

const encode = (offset: number) => Buffer.from(`off:${offset}`).toString('base64url');
function decode(cursor: string): number {
  const m = /^off:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw invalid('cursor', 'is not a cursor this list returned');
  return Number(m[1]);
}

export const cursorShift = engineFault({
  name: 'cursor-shift',
  description: 'GET /users/{userId}/positions pages by row offset: inserts during a walk shift rows across pages',
  breaks: 'pagination under writes (every item that existed before the walk appears exactly once)',
  config: z.object({}).strict(),
  // Oldest first, new rows land after the walk's page: an offset cursor is then as good as any.
  bugUnder: (profile) => profile.pagination.order !== 'created-asc',
  install() {
    return {
      'positions.list': (engine, input) => {
        const q = input.query as ListQuery;
        const limit = Math.min(q.limit ?? LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX);
        const offset = q.cursor === undefined ? 0 : decode(q.cursor);
        const dir = engine.profile.pagination.order === 'created-asc' ? 'ASC' : 'DESC';
        const rows = engine.db
          .prepare(
            'SELECT id, status, type, user_id, asset, amount, rate, maturity_ms, created_at_ms FROM positions WHERE partner_id = @p AND user_id = @u' +
              (q.status ? ' AND status = @s' : '') +
              (q.type ? ' AND type = @t' : '') +
              ` ORDER BY created_at_ms ${dir}, id ${dir} LIMIT @n OFFSET @o`,
          )
          .all({ p: input.partner!.partnerId, u: input.params.userId, n: limit + 1, o: offset, ...(q.status ? { s: q.status } : {}), ...(q.type ? { t: q.type } : {}) }) as ListRow[];
        const hasMore = rows.length > limit;
        const page = rows.slice(0, limit);
        const out: Record<string, unknown> = { positions: page.map(listItemView), hasMore };
        if (hasMore) out.nextCursor = encode(offset + limit);
        else if (engine.profile.pagination.lastPageCursor === 'null') out.nextCursor = null;
        return out;
      },
    };
  },
});
