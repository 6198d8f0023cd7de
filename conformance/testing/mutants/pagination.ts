import { alterRequest, matches, rewrite, withJson, withQuery } from './kit.ts';
import { registerMutants } from './mutant.ts';

// Mutants of the position list (spec part 2 and 8): page sizes, cursors, hasMore, filters.

const list = (req: Request, res: Response) => matches(req, 'positions.list') && res.status === 200;
const q = (req: Request) => new URL(req.url).searchParams;

export const PAGINATION_MUTANTS = registerMutants([
  {
    id: 'page.off-by-one',
    breaks: 'each page drops its last item while the cursor moves past it',
    rule: 'PAGE-cursor',
    killers: ['pagination.walk'],
    install: () => rewrite((req, res) => list(req, res), (b) => (b.hasMore ? { ...b, positions: b.positions.slice(0, -1) } : b)),
  },
  {
    id: 'page.repeat-across-pages',
    breaks: "a page repeats the previous page's last item in place of its first",
    rule: 'PAGE-cursor',
    killers: ['pagination.walk'],
    install: () => {
      let last: unknown;
      return rewrite(list, (b, req) => {
        const prev = last;
        last = b.positions[b.positions.length - 1];
        if (q(req).get('cursor') && prev && b.positions.length) b.positions[0] = prev;
        return b;
      });
    },
  },
  {
    id: 'page.hasMore-true-on-last',
    breaks: 'the last page says hasMore true',
    rule: 'PAGE-hasMore',
    killers: ['pagination.walk'],
    install: () => rewrite(list, (b) => (b.hasMore ? b : { ...b, hasMore: true })),
  },
  {
    id: 'page.hasMore-false-early',
    breaks: 'a first page with more to come says hasMore false',
    rule: 'PAGE-hasMore',
    killers: ['pagination.default-limit'],
    install: () => rewrite((req, res) => list(req, res) && !q(req).get('cursor'), (b) => ({ ...b, hasMore: false })),
  },
  {
    id: 'page.cursor-on-last-page',
    breaks: 'the last page still carries a nextCursor',
    rule: 'PAGE-hasMore',
    killers: ['pagination.walk'],
    install: () => rewrite(list, (b) => (b.hasMore ? b : { ...b, nextCursor: 'bGFzdA' })),
  },
  {
    id: 'page.over-max-honoured',
    breaks: 'a limit over 100 is honoured (pages are stitched together up to it)',
    rule: 'PAGE-limit-max',
    killers: ['pagination.max-limit'],
    install: () => async (req, next) => {
      const want = Number(q(req).get('limit'));
      if (!(matches(req, 'positions.list') && want > 100)) return next(req);
      const items: unknown[] = [];
      let cursor: string | undefined;
      let res: Response;
      let body: { positions: unknown[]; hasMore: boolean; nextCursor?: string };
      do {
        res = await next(withQuery(req, (s) => (s.set('limit', '100'), cursor ? s.set('cursor', cursor) : s.delete('cursor'))));
        body = (await res.clone().json()) as typeof body;
        items.push(...body.positions);
        cursor = body.nextCursor;
      } while (res.status === 200 && body.hasMore && items.length < want);
      return withJson(res, { ...body, positions: items.slice(0, want) });
    },
  },
  {
    id: 'page.default-10',
    breaks: 'the default page size is 10',
    rule: 'PAGE-limit-default',
    killers: ['pagination.default-limit'],
    direction: 'upstream',
    install: () => alterRequest((req) => matches(req, 'positions.list') && !q(req).has('limit'), (req) => withQuery(req, (s) => s.set('limit', '10'))),
  },
  {
    id: 'page.status-filter-ignored',
    breaks: 'the status filter is ignored',
    rule: 'PAGE-filters',
    killers: ['pagination.filters'],
    direction: 'upstream',
    install: () => alterRequest((req) => matches(req, 'positions.list') && q(req).has('status') && q(req).has('cursor'), (req) => withQuery(req, (s) => s.delete('status'))),
  },
  {
    id: 'page.type-filter-ignored',
    breaks: 'the type filter is ignored',
    rule: 'PAGE-filters',
    killers: ['pagination.filters'],
    direction: 'upstream',
    install: () => alterRequest((req) => matches(req, 'positions.list') && q(req).get('type') === 'borrow', (req) => withQuery(req, (s) => s.delete('type'))),
  },
  {
    id: 'page.bad-cursor-accepted',
    breaks: 'a cursor the service never issued is taken as the first page',
    rule: 'PAGE-cursor',
    killers: ['pagination.bad-cursor'],
    direction: 'upstream',
    install: () => {
      const issued = new Set<string>();
      return async (req, next) => {
        const c = q(req).get('cursor');
        const res = await next(matches(req, 'positions.list') && c && !issued.has(c) ? withQuery(req, (s) => s.delete('cursor')) : req);
        if (matches(req, 'positions.list') && res.status === 200) {
          const b = (await res.clone().json()) as { nextCursor?: string };
          if (b.nextCursor) issued.add(b.nextCursor);
        }
        return res;
      };
    },
  },
  {
    id: 'page.unstable-under-insert',
    breaks: 'a walk restarts from the newest position after inserts, repeating items',
    rule: 'PAGE-cursor',
    killers: ['pagination.stable-insert'],
    direction: 'upstream',
    install: () => {
      let lends = 0;
      let lastSeen = 0;
      return async (req, next) => {
        if (matches(req, 'lend.create')) lends++;
        const moved = matches(req, 'positions.list') && q(req).has('cursor') && lends !== lastSeen && lastSeen !== 0;
        if (matches(req, 'positions.list')) lastSeen = lends;
        return next(moved ? withQuery(req, (s) => s.delete('cursor')) : req);
      };
    },
  },
]);
