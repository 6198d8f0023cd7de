import { endpointById, LIST_LIMIT_DEFAULT, successKey, LIST_LIMIT_MAX, positionList, type PositionList, type Profile } from '../../contract/index.ts';
import { CheckSkip, expectError, expectShape, expectStatus, fail, show, type Check, type CheckContext, pass } from '../check.ts';
import type { Reply } from '../http.ts';
import { expectSuccess, knownUser } from './fixtures.ts';
import { pagedLend, pagedUser, type PagedUser } from './paged-user.ts';

// Part 2 and 8: default and maximum page size, cursor walks that return every position
// exactly once (filters included), hasMore/nextCursor agreement on every page, and a walk
// that stays exact while positions are added during it.

// 21: more than the default page of 20, and 3 pages of 7 for pagination.walk's exact multiple;
// 3 cancelled: a fixed set that still takes pages of 1 and 2. Lends the lifecycle checks placed for
// that user count towards them (paged-user.ts): they are positions of the same user, known to the run.
const TOTAL = 21;
const CANCELLED = 3;
/** Where pagination.walk records a walk of the whole list whose every page was full, for pagination.edges. */
const EXACT_WALK = 'pagination:exact-walk';

/** The run's paged user, holding TOTAL lends at least, CANCELLED of them cancelled (the oldest still pending); more when the profile clamps. */
async function filledUser(ctx: CheckContext): Promise<PagedUser> {
  const b = await pagedUser(ctx);
  if (ctx.shared.get('pagedUser:filled')) return b;
  while (b.ids.length < TOTAL) await pagedLend(ctx);
  // The oldest lends not yet cancelled (lifecycle.cancel may have cancelled one of them already).
  for (const id of b.ids.filter((x) => !b.cancelled.has(x) && !b.matched.has(x)).slice(0, Math.max(0, CANCELLED - b.cancelled.size))) {
    const r = await ctx.call('position.cancel', { params: { positionId: id } });
    // An order a counterparty took first cannot be cancelled; it simply stays out of the set.
    if (r.status >= 200 && r.status < 300) b.cancelled.add(id);
    else if (r.status >= 500) expectStatus(r, [200, 201, 202, 204], 'cancelling a pending position for the filter checks');
  }
  ctx.shared.set('pagedUser:filled', true);
  return b;
}

async function page(ctx: CheckContext, userId: string, query: Record<string, string | number | undefined>): Promise<{ r: Reply; body: PositionList }> {
  const r = await ctx.call('positions.list', { params: { userId }, query });
  const shown = Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]);
  const key = successKey(endpointById(ctx.profile, 'positions.list')!);
  expectSuccess(ctx, r, key, `${key}?${new URLSearchParams(shown)}`);
  return { r, body: expectShape(r, positionList, 'a page of the position list matches the spec') };
}

/** hasMore and nextCursor agree; the last page's cursor follows the profile. */
function pageRules(ctx: CheckContext, r: Reply, body: PositionList, title: string): void {
  const hasCursor = typeof body.nextCursor === 'string' && body.nextCursor.length > 0;
  if (body.hasMore && !hasCursor) fail(`${title}: hasMore true comes with a nextCursor`, 'a nextCursor string', show(body.nextCursor), r.exchange);
  if (!body.hasMore && hasCursor) fail(`${title}: the last page (hasMore false) has no nextCursor to follow`, 'no nextCursor', show(body.nextCursor), r.exchange);
  if (!body.hasMore) {
    // An empty string is legal (part 2 types nextCursor only "string"): advice, never a failure.
    const form = 'nextCursor' in body ? (body.nextCursor === null ? 'null' : body.nextCursor === '' ? 'empty string' : 'value') : 'omit';
    const want = ctx.profile.pagination.lastPageCursor;
    ctx.profileChoice({ option: 'pagination.lastPageCursor', expected: want, followed: form === want, received: form }, r.exchange);
  }
}

interface Walk {
  ids: string[];
  /** createdAt of each position, in walk order. */
  created: string[];
  pages: number;
}

/**
 * Is a walk in the profile's order? Judged by createdAt, not by the order lendcheck created
 * the positions in: positions made within one tick of the target's clock share a createdAt,
 * and the spec leaves how such ties are ordered open, so ties may come in any order.
 * Returns the first pair out of order, or undefined.
 */
export function outOfOrder(ids: string[], created: string[], order: Profile['pagination']['order']): string | undefined {
  for (let i = 1; i < created.length; i++) {
    const [a, b] = [Date.parse(created[i - 1]!), Date.parse(created[i]!)];
    if (order === 'created-desc' ? a < b : a > b) return `${ids[i - 1]} (createdAt ${created[i - 1]}) before ${ids[i]} (createdAt ${created[i]})`;
  }
  return undefined;
}

/**
 * `stable`: the walk's set cannot change under it (no filter, a type filter, the terminal status
 * cancelled), so a page after hasMore true must hold an item: "True when further pages exist"
 * (part 2). A status that moves with time (a pending order matched meanwhile) may empty it fairly.
 */
async function walk(ctx: CheckContext, userId: string, query: Record<string, string | number | undefined>, between?: (pageNo: number) => Promise<void>, stable = false): Promise<Walk> {
  const ids: string[] = [];
  const created: string[] = [];
  let cursor: string | undefined;
  const limit = Number(query.limit ?? LIST_LIMIT_DEFAULT);
  for (let n = 1; n <= 200; n++) {
    const { r, body } = await page(ctx, userId, { ...query, cursor });
    pageRules(ctx, r, body, `page ${n} of a walk with ${show(query)}`);
    if (stable && n > 1 && body.positions.length === 0) fail(`page ${n - 1} of a walk with ${show(query)} said hasMore true, so further pages exist (PAGE-hasMore)`, 'an item on the next page', `page ${n} empty (${ids.length} items before it, limit ${limit})`, r.exchange);
    if (body.positions.length > limit) fail(`page ${n} holds at most limit=${limit} items`, `≤ ${limit}`, `${body.positions.length}`, r.exchange);
    // A short page before the end is odd but not forbidden by the spec: a note, not a failure
    // (exactly-once below still catches any item a short page loses).
    if (body.hasMore && body.positions.length !== limit) ctx.note(`page ${n} of a walk with limit=${limit} held ${body.positions.length} items while hasMore was true`);
    for (const p of body.positions) {
      if (ids.includes(p.positionId)) fail(`the walk returns each position once`, `${p.positionId} once`, `again on page ${n}`, r.exchange);
      ids.push(p.positionId);
      created.push(typeof p.createdAt === 'string' ? p.createdAt : '');
      if (query.status && p.status !== query.status) fail(`the status filter is honoured`, `status ${query.status}`, `${p.positionId} with status ${p.status}`, r.exchange);
      if (query.type && p.type !== query.type) fail(`the type filter is honoured`, `type ${query.type}`, `${p.positionId} with type ${p.type}`, r.exchange);
    }
    if (!body.hasMore) return { ids, created, pages: n };
    cursor = body.nextCursor as string;
    if (between) await between(n);
  }
  return fail('a cursor walk ends', 'hasMore false within 200 pages', 'more than 200 pages');
}

/**
 * A page size that walks `n` positions in about `pages` pages (never below `least`): a walk
 * needs several pages to test cursors, not one page per handful, which only spends the key's
 * rate limit (the paged user holds 21 or more, or over 100 once pagination.max-limit has seen a limit
 * over 100 taken).
 */
const pageSize = (n: number, pages: number, least: number) => Math.min(LIST_LIMIT_MAX, Math.max(least, Math.ceil(n / pages)));

function sameSet(title: string, got: string[], want: string[], r?: Reply): void {
  const g = new Set(got);
  const missing = want.filter((id) => !g.has(id));
  const extra = got.filter((id) => !want.includes(id));
  if (missing.length || extra.length || got.length !== want.length) {
    fail(title, `${want.length} positions, each once`, `${got.length} (missing ${show(missing)}, unexpected ${show(extra)})`, r?.exchange);
  }
}

export function paginationChecks(_profile: Profile): Check[] {
  const REQ = ['EP-positions-list', 'SHAPE-position-list'];
  return [
    {
      id: 'pagination.default-limit',
      title: 'a list without limit returns 20 positions and says more exist',
      requirements: [...REQ, 'PAGE-limit-default', 'PAGE-hasMore'],
      needs: ['write'],
      async run(ctx) {
        const b = await filledUser(ctx);
        const { r, body } = await page(ctx, b.userId, {});
        if (body.positions.length !== LIST_LIMIT_DEFAULT) fail('the default page size is 20', `${LIST_LIMIT_DEFAULT} positions`, `${body.positions.length}`, r.exchange);
        if (!body.hasMore) fail(`hasMore is true when ${b.ids.length} positions exist and 20 were returned`, 'hasMore true', show(body.hasMore), r.exchange);
        pageRules(ctx, r, body, 'the first page');
        return pass();
      },
    },
    {
      id: 'pagination.max-limit',
      title: 'limit=100 returns 100 of more (every one of fewer), and a limit over 100 is refused or clamped (the profile says which), never honoured',
      requirements: [...REQ, 'PAGE-limit-max', 'PAGE-hasMore', 'ERR-invalid_request'],
      needs: ['write'],
      async run(ctx) {
        const b = await filledUser(ctx);
        const over = () => ctx.call('positions.list', { params: { userId: b.userId }, query: { limit: LIST_LIMIT_MAX + 1 } });
        // limit=101 first: a refusal is within the spec whatever the user holds, so more than 100
        // positions are made only when it is taken, to tell a clamp from a limit honoured (about 76
        // lends a run that a refusing target never needed: issue 48).
        let r101 = await over();
        const taken = () => r101.status >= 200 && r101.status < 300;
        if (taken() && b.ids.length <= LIST_LIMIT_MAX) {
          while (b.ids.length <= LIST_LIMIT_MAX) await pagedLend(ctx);
          r101 = await over();
        }
        const all = await page(ctx, b.userId, { limit: LIST_LIMIT_MAX });
        const want100 = Math.min(b.ids.length, LIST_LIMIT_MAX);
        // Fewer than 100 positions (a refusing target): every one of them on the page (at least: others may add).
        if (all.body.positions.length < want100 || all.body.positions.length > LIST_LIMIT_MAX) {
          fail(b.ids.length > LIST_LIMIT_MAX ? 'limit=100 returns 100 positions when more exist' : `limit=100 returns all ${b.ids.length} positions of a user holding fewer than 100`, `${want100}`, `${all.body.positions.length}`, all.r.exchange);
        }
        if (b.ids.length > LIST_LIMIT_MAX && !all.body.hasMore) fail('hasMore is true when positions remain after 100', 'true', show(all.body.hasMore), all.r.exchange);
        pageRules(ctx, all.r, all.body, 'limit=100');
        // Reject (400) or clamp (at most 100) are both within the spec; which one is the profile's.
        let seen: 'reject' | 'clamp';
        if (taken()) {
          const n = (r101.json as PositionList).positions?.length ?? -1;
          if (n > LIST_LIMIT_MAX) fail('a limit over 100 is not honoured (maximum 100)', `≤ ${LIST_LIMIT_MAX} positions or a 400`, `${n} positions`, r101.exchange);
          seen = 'clamp';
        } else {
          expectError(r101, 'invalid_request', 400, 'limit=101 is refused as over the maximum, or clamped');
          const msg = (r101.json as { error: { message: string } }).error.message;
          if (!msg.includes('limit')) ctx.note(`the over-maximum refusal does not name limit: ${show(msg)}`);
          seen = 'reject';
        }
        const want = ctx.profile.pagination.overMax;
        ctx.profileChoice({ option: 'pagination.overMax', expected: want, followed: seen === want, received: seen }, r101.exchange);
        return pass();
      },
    },
    {
      id: 'pagination.walk',
      title: 'a cursor walk with limit=7 returns every position exactly once, in the profile order, with hasMore and nextCursor agreeing on every page',
      requirements: [...REQ, 'PAGE-cursor', 'PAGE-hasMore'],
      needs: ['write'],
      async run(ctx) {
        const b = await filledUser(ctx);
        const limit = pageSize(b.ids.length, 4, 7);
        const w = await walk(ctx, b.userId, { limit }, undefined, true);
        sameSet('a full walk returns every position of the user exactly once', w.ids, b.ids);
        // Every page exactly full (21 in pages of 7): the edge pagination.edges would walk again is walked (issue 51 item 3).
        if (w.ids.length % limit === 0 && w.pages === w.ids.length / limit) ctx.shared.set(EXACT_WALK, { ids: [...w.ids], limit, pages: w.pages });
        const wrong = outOfOrder(w.ids, w.created, ctx.profile.pagination.order);
        ctx.profileChoice({ option: 'pagination.order', expected: `${ctx.profile.pagination.order} by createdAt (ties in any order)`, followed: !wrong, received: wrong ?? 'in order' });
        return pass();
      },
    },
    {
      id: 'pagination.filters',
      title: 'walks filtered by status and by type return exactly the matching positions, each once',
      requirements: [...REQ, 'PAGE-filters', 'PAGE-cursor', 'STATE-status-values'],
      needs: ['write'],
      async run(ctx) {
        const b = await filledUser(ctx);
        const cancelled = [...b.cancelled];
        const pending = b.ids.filter((id) => !b.cancelled.has(id));
        sameSet('status=cancelled returns the cancelled positions', (await walk(ctx, b.userId, { status: 'cancelled', limit: 2 }, undefined, true)).ids, cancelled);
        // Two pages a walk: each filter is still asked again with a cursor, the page where a filter left out shows (issue 48).
        sameSet('type=lend returns every lend', (await walk(ctx, b.userId, { type: 'lend', limit: pageSize(b.ids.length, 2, 9) }, undefined, true)).ids, b.ids);
        sameSet('type=borrow returns no lend', (await walk(ctx, b.userId, { type: 'borrow', limit: 9 }, undefined, true)).ids, []);
        // Pending and active move with time (a counterparty may match an order at any
        // moment), so these walks are held to the filter item by item (see walk) and to
        // the user's own non-cancelled positions, not to a fixed set.
        for (const status of ['pending', 'active'] as const) {
          for (const w of [await walk(ctx, b.userId, { status, limit: pageSize(pending.length, 2, 6) }), await walk(ctx, b.userId, { status, type: 'lend', limit: pageSize(pending.length, 2, 8) + 1 })]) {
            const stray = w.ids.filter((id) => !pending.includes(id));
            if (stray.length) fail(`status=${status} returns only positions of this user that are not cancelled`, 'ids among the non-cancelled positions', show(stray));
          }
        }
        return pass();
      },
    },
    {
      id: 'pagination.edges',
      title: 'pages at the edges: one page exactly full, limit=1 over a total that is a multiple of it, an empty list, filters combined; no page behind hasMore true is empty, no item lost or repeated',
      requirements: [...REQ, 'PAGE-hasMore', 'PAGE-cursor', 'PAGE-limit-applied', 'PAGE-filters', 'QUERY-list-status', 'QUERY-list-type'],
      needs: ['write'],
      async run(ctx) {
        const b = await filledUser(ctx);
        // The cancelled positions are a set nothing changes (a terminal status): totals known exactly.
        const cancelled = [...b.cancelled];
        if (!cancelled.length) throw new CheckSkip('none of the paged user\'s lends could be cancelled (each was matched first), so no list of a known, fixed size exists to page at its edges');
        const c = cancelled.length;
        // A single page exactly `limit` long: it is the last (hasMore false), and nothing follows it.
        const one = await walk(ctx, b.userId, { status: 'cancelled', limit: c }, undefined, true);
        sameSet(`status=cancelled with limit=${c} (the total) returns the cancelled positions`, one.ids, cancelled);
        if (one.pages !== 1) fail(`status=cancelled with limit=${c} is one page: ${c} positions exist`, '1 page, hasMore false', `${one.pages} pages`);
        // limit=1 with both filters: c pages of one, the last exactly full.
        sameSet('status=cancelled&type=lend with limit=1 returns each cancelled lend once', (await walk(ctx, b.userId, { status: 'cancelled', type: 'lend', limit: 1 }, undefined, true)).ids, cancelled);
        // An empty list: both filters, no match.
        const none = await walk(ctx, b.userId, { status: 'cancelled', type: 'borrow', limit: c }, undefined, true);
        sameSet('status=cancelled&type=borrow returns nothing for a user with lends only', none.ids, []);
        // The whole list in pages whose total is an exact multiple, where one divides it in a few pages:
        // not again when pagination.walk walked this very set so, each page full and none empty behind hasMore true.
        const exact = ctx.shared.get(EXACT_WALK) as { ids: string[]; limit: number; pages: number } | undefined;
        const k = [2, 3, 4, 5, 6].find((pages) => b.ids.length % pages === 0 && b.ids.length / pages <= LIST_LIMIT_MAX);
        if (exact && exact.pages > 1 && exact.ids.length === b.ids.length && b.ids.every((id) => exact.ids.includes(id))) ctx.note(`the whole list in ${exact.pages} pages of exactly ${exact.limit} was walked by pagination.walk, each position once and no empty page behind hasMore true: not walked again`);
        else if (k) sameSet(`type=lend in ${k} pages of exactly ${b.ids.length / k} returns every position once`, (await walk(ctx, b.userId, { type: 'lend', limit: b.ids.length / k }, undefined, true)).ids, b.ids);
        else ctx.note(`the paged user's ${b.ids.length} positions divide into no 2 to 6 equal pages; the exact multiple was walked on the ${c} cancelled ones`);
        return pass();
      },
    },
    {
      id: 'pagination.bad-cursor',
      title: 'a cursor the service never issued is refused with 400 invalid_request',
      requirements: ['PAGE-cursor', 'ERR-invalid_request', 'SHAPE-error'],
      async run(ctx) {
        // A user the target knows: for an unseen one it may answer position_not_found first (profile errors.unknownUser).
        const { userId, fresh } = await knownUser(ctx, 'cursor');
        for (const cursor of ['%%%', 'bm90LWEtY3Vyc29y', 'x'.repeat(300)]) {
          const r = await ctx.call('positions.list', { params: { userId }, query: { cursor } });
          if (fresh && r.status === 404 && ctx.profile.errors.unknownUser === 'position_not_found') throw new CheckSkip('a read-only run has no user the target knows, and an unseen one is refused as position_not_found (profile errors.unknownUser) before its cursor is read');
          expectError(r, 'invalid_request', 400, `a made-up cursor ${show(cursor.slice(0, 20))}`);
        }
        return pass();
      },
    },
    {
      id: 'pagination.stable-insert',
      title: 'positions created during a walk do not make the walk skip or repeat any position that existed when it began',
      requirements: [...REQ, 'PAGE-cursor', 'PAGE-hasMore'],
      needs: ['write'],
      async run(ctx) {
        // The paged user's positions are the walk's set (one fixture for the family: 8 lends of
        // its own spent 8 requests more, issue 48); 2 are added after the first page, about half
        // of them (12 of 21: the rest in one more page, not two), so an offset cursor repeats or
        // skips two. They join the paged user's set for the checks after.
        const b = await filledUser(ctx);
        const before = [...b.ids];
        const added: string[] = [];
        const w = await walk(ctx, b.userId, { limit: pageSize(b.ids.length + 2, 2, 8) }, async (n) => {
          if (n !== 1) return;
          for (let i = 0; i < 2; i++) {
            added.push((await pagedLend(ctx)).body.positionId);
          }
        });
        const seenBefore = w.ids.filter((id) => before.includes(id));
        sameSet('every position that existed at the start is seen exactly once', seenBefore, before);
        const unknown = w.ids.filter((id) => !before.includes(id) && !added.includes(id));
        if (unknown.length) fail('the walk returns only this user\'s positions', 'ids created for this user', show(unknown));
        return pass();
      },
    },
  ];
}
