import { legalAmount, endpoints, marketId, ORDERBOOK_DEPTH_DEFAULT, periodToSend, webhookDeletable, type Endpoint, type Profile } from '../../contract/index.ts';
import { CheckSkip, evidenceOf, fail, pass, show, type Check, type CheckContext, type Need } from '../check.ts';
import type { Exchange } from '../../kernel/results.ts';
import type { Reply } from '../http.ts';
import { borrowBody, createLend, fundedUser, lendBody, pairAsset, profileGap, refusesField, refusesFloor, sharedLend, skipIfUnfunded, validAddress } from './fixtures.ts';
import { findId, listedIds, positionIdIn } from '../body-id.ts';
import { cleanMarket, marketOrder } from './clean-market.ts';
import { pagedLend, pagedUser } from './paged-user.ts';
import { expectSuccess } from './success.ts';
import { depthCheck } from './depth.ts';
import { authBookSides, SIDES } from './book-levels.ts';
import { callById } from './call-by-id.ts';
import { orderMaturity } from '../../contract/order-maturity.ts';

// One check per endpoint of spec part 4: status, content type and body schema. The
// schemas carry the conventions (UTC timestamps, decimal-string amounts, numeric rates).

const CONV = ['CONV-amount-decimal', 'CONV-rate-fraction', 'CONV-timestamp-utc', 'EP-json', 'EP-version-path'];

/** How to call each endpoint with valid input; returns the reply. */
const CALLS: Record<string, (ctx: CheckContext, e: Endpoint) => Promise<Reply>> = {
  'lend.create': async (ctx) => ctx.call('lend.create', { body: lendBody(ctx, await fundedUser(ctx, 'ep-lend')) }),
  'borrow.create': async (ctx) => ctx.call('borrow.create', { body: borrowBody(ctx, await fundedUser(ctx, 'ep-borrow')) }),
  'position.get': async (ctx) => ctx.call('position.get', { params: { positionId: (await sharedLend(ctx)).positionId } }),
  'positions.list': async (ctx) => ctx.call('positions.list', { params: { userId: (await sharedLend(ctx)).userId } }),
  'position.repay': async (ctx) => {
    const pair = await matchedPair(ctx);
    return ctx.call('position.repay', { params: { positionId: pair.borrowId }, body: { amount: '1' } });
  },
  'position.cancel': async (ctx) => {
    const c = await createLend(ctx, await fundedUser(ctx, 'ep-cancel'));
    const r = await ctx.call('position.cancel', { params: { positionId: c.body.positionId } });
    if (r.status >= 400 && r.status < 500) {
      // A counterparty may take an order at any moment (a fast test clock makes that quick).
      const now = (await ctx.call('position.get', { params: { positionId: c.body.positionId } })).json as { status?: string } | undefined;
      if (now?.status && now.status !== 'pending') throw new CheckSkip(`the lend was ${now.status} before it could be cancelled, so the cancel answer could not be seen`);
    }
    return r;
  },
  'position.patch': async (ctx) => ctx.call('position.patch', { params: { positionId: (await sharedLend(ctx)).positionId }, body: { autoRollover: false } }),
  'user.withdraw': async (ctx) => {
    const u = await fundedUser(ctx, 'ep-withdraw');
    const r = await ctx.call('user.withdraw', { params: { userId: u }, body: { asset: 'USDC', amount: legalAmount(ctx.profile, 0, { base: '10', kind: 'withdrawal' }), destination: validAddress(ctx.profile) } });
    if (!ctx.hasControls && (r.json as { error?: { code?: string } })?.error?.code === 'insufficient_funds') {
      throw new CheckSkip('a withdrawal needs funds, and the target has no sandbox controls to add them', 'target-lacks');
    }
    return r;
  },
  'rates.get': async (ctx) => ctx.call('rates.get'), // only in the table with a path (contract endpoints)
  'orderbook.get': async (ctx) => ctx.call('orderbook.get', { params: { asset: 'USDC' } }),
  'webhooks.create': async (ctx) => {
    const r = await ctx.call('webhooks.create', { body: { url: 'http://127.0.0.1:9/lendcheck-discard', events: ['position.created'], secret: webhookSecret(ctx) } });
    await deleteHook(ctx, r);
    return r;
  },
  'webhooks.list': async (ctx) => ctx.call('webhooks.list'),
  'webhooks.delete': async (ctx) => {
    const c = await ctx.call('webhooks.create', { body: { url: 'http://127.0.0.1:9/lendcheck-discard', events: ['position.created'], secret: webhookSecret(ctx) } });
    // The registration body is not shown by the spec: its id is found, or named by profile ids.webhook.
    const id = findId(c.json, ctx.profile.ids.webhook)?.value;
    if (!id) throw new CheckSkip(`POST /webhooks answered ${c.status} with no field named like an id to delete it by (name it in the profile: ids.webhook)`);
    return ctx.call('webhooks.delete', { params: { webhookId: id } });
  },
  'public.markets': async (ctx) => ctx.call('public.markets'),
  'public.orderbook': async (ctx) => ctx.call('public.orderbook', { params: { id: firstMarket(ctx.profile) } }),
  'public.rates': async (ctx) => ctx.call('public.rates'),
  'public.tvl': async (ctx) => ctx.call('public.tvl', { query: { period: periodOf(ctx.profile) } }),
  'public.volume': async (ctx) => ctx.call('public.volume', { query: { period: periodOf(ctx.profile) } }),
  'public.rateSeries': async (ctx) => callById(ctx, 'public.rateSeries', { query: { asset: 'USDC', maturity: ctx.profile.markets.maturities[0], period: periodOf(ctx.profile) } }),
  'public.vaults': async (ctx) => ctx.call('public.vaults'),
  'public.vault': async (ctx) => {
    // The list endpoint.public.vaults judged (or any check's answer of it) serves to find an id.
    const list = ctx.answers?.firstSuccess('public.vaults')?.reply ?? (await ctx.call('public.vaults'));
    // The list is not shown by the spec: its items' ids are found, whatever the list is called.
    const wrapped = list.json && typeof list.json === 'object' && 'data' in list.json && 'timestamp' in list.json;
    const id = listedIds(wrapped ? (list.json as { data: unknown }).data : list.json)[0];
    if (!id) throw new CheckSkip(`GET /vaults listed no vault whose id could be read (${list.status}), so /vaults/{id} has nothing to fetch`);
    return ctx.call('public.vault', { params: { id } });
  },
};

/** A period the profile lists (markets.periods, detected), else the spec's example 30d (contract/period.ts). */
export const periodOf = (p: Profile) => periodToSend(p);

export const firstMarket = (p: Profile) => marketId(p, 'USDC', p.markets.maturities[0] ?? '30d');

export function webhookSecret(ctx: CheckContext, who = ''): string {
  // Alphanumerics padded to a multiple of 4: base64 text, so it fits every signature scheme
  // (standard-webhooks decodes what follows whsec_), and still names the run. `who` tells two
  // subscribers of one run apart (the authz matrix's partner B must not hold partner A's secret).
  const text = `${who.replace(/[^A-Za-z0-9]/g, '')}${ctx.runId.replace(/[^A-Za-z0-9]/g, '')}${'x'.repeat(16)}`;
  const s = `whsec_${text.padEnd(Math.ceil(text.length / 4) * 4, 'x')}`;
  ctx.http.addSecret(s);
  return s;
}

async function deleteHook(ctx: CheckContext, created: Reply): Promise<void> {
  const id = findId(created.json, ctx.profile.ids.webhook)?.value;
  if (id && webhookDeletable(ctx.profile)) await ctx.call('webhooks.delete', { params: { webhookId: id } });
}

/**
 * A lend and a borrow that cross only each other, so the engine matches them; one pair per tag
 * and run. The market and rate come from its book (clean-market.ts): a rate no resting order
 * of an earlier run (or anyone else) crosses, so the borrow meets this lend and nothing else.
 * A target whose book cannot be read gets the old choice: the longest market, at 0.0001.
 */
export async function matchedPair(ctx: CheckContext, tag = 'match'): Promise<{ lendId: string; borrowId: string; lender: string; borrower: string }> {
  const k = `matchedPair:${tag}`;
  const have = ctx.shared.get(k) as { lendId: string; borrowId: string; lender: string; borrower: string } | undefined;
  if (have) return have;
  const asset = pairAsset(ctx.profile);
  // The run's shared pair lends from the paged user (paged-user.ts): its lend is one of the positions
  // the pagination checks page (one lend fewer to place there, and an active one among them).
  const shared = tag === 'match';
  const lender = shared ? (await pagedUser(ctx)).userId : await fundedUser(ctx, `${tag}-lender`);
  const borrower = await fundedUser(ctx, `${tag}-borrower`);
  // Read last, just before the orders, so the book is as current as it can be.
  const { maturity, rate } = await pairMarket(ctx, asset, tag);
  const amount = legalAmount(ctx.profile);
  const l = shared ? await pagedLend(ctx, { asset, rate, amount, maturity }, { matched: true }) : await createLend(ctx, lender, { asset, rate, amount, maturity });
  const b = await ctx.call('borrow.create', { body: borrowBody(ctx, borrower, { rate, borrowAmount: amount, maturity }) });
  skipIfUnfunded(ctx, b, `a borrow for ${borrower}`);
  if (b.status < 200 || b.status > 299) fail('a borrow crossing a resting lend is accepted', 'a 2xx', `${b.status} ${show(b.json ?? b.text)}`, b.exchange);
  const borrowId = positionIdIn(b.json, ctx.profile.ids.borrow);
  if (!borrowId) fail('POST /borrow answers with the new position\'s id', `a ${ctx.profile.ids.borrow ?? 'positionId (or one field named like an id)'} string`, show(b.json), b.exchange);
  const v = { lendId: l.body.positionId, borrowId: borrowId as string, lender, borrower };
  ctx.shared.set(k, v);
  return v;
}

/** Whether the run's pair of this tag was made already. */
export const hasPair = (ctx: CheckContext, tag = 'match'): boolean => ctx.shared.has(`matchedPair:${tag}`);

/** The shared pair (tag `match`) is no longer open as its readers need it (its borrow fully repaid): the next reader makes another. */
export function retirePair(ctx: CheckContext, tag = 'match'): void {
  ctx.shared.delete(`matchedPair:${tag}`);
}

/** Where a pair trades: a market whose book leaves a rate free (see matchedPair), else a skip saying why. */
export async function pairMarket(ctx: CheckContext, asset: string, tag: string): Promise<{ maturity: string; rate: number }> {
  const m = await cleanMarket(ctx, asset, 1);
  if (m.found) return { maturity: m.found.maturity, rate: m.found.rates[0]! };
  if (m.unread) {
    ctx.note(`the ${asset} order books could not be read as lends and borrows with rates, so the ${tag} pair trades at 0.0001 in the longest market without knowing what rests there`);
    return { maturity: marketOrder(ctx)[0]!, rate: 0.0001 };
  }
  throw new CheckSkip(`every ${asset} market's book holds resting orders (left by earlier runs or others) that leave no rate at which a lend and a borrow cross only each other, so a match of the check's own orders cannot be told apart from a fill by them: ${m.seen.join('; ')}`);
}

/** The order books, whose check holds an answer to the default depth: only an answer asked without `depth` is judged in place of its own. */
const ORDER_BOOKS = new Set(['orderbook.get', 'public.orderbook']);
const askedNoDepth = (x: Exchange) => {
  try {
    return !new URL(x.url).searchParams.has('depth');
  } catch {
    return false;
  }
};

/** The public analytics reads, which take a period (spec part 4). */
const ANALYTICS = new Set(['public.tvl', 'public.volume', 'public.rateSeries']);

const EXTRA_REQUIREMENTS: Record<string, string[]> = {
  'orderbook.get': ['BOOK-depth-default'],
  'public.orderbook': ['BOOK-depth-default'],
  'lend.create': ['STATE-create-pending', 'FIELD-lend-userId', 'FIELD-lend-asset', 'FIELD-lend-amount'],
};

function endpointCheck(e: Endpoint): Check {
  const call = CALLS[e.id];
  const write = e.method !== 'GET';
  const needs: Need[] = [];
  if (write) needs.push('write');
  return {
    id: `endpoint.${e.id}`,
    title: `${e.method} ${e.path} answers with the success status, JSON and the contract's body`,
    requirements: [...e.requirements, ...(e.responseSource === 'spec' ? CONV : ['EP-json']), ...(e.access === 'public' ? ['AUTH-5', 'PUB-envelope'] : ['AUTH-1']), ...(EXTRA_REQUIREMENTS[e.id] ?? [])],
    needs,
    // After the scenarios (lifecycle, pagination, hooks, concurrency): by then most endpoints have answered one of their requests.
    phase: 'late',
    async run(ctx) {
      // An answer the run already got from this endpoint, judged on arrival, is judged here again, whole,
      // instead of a request of its own (issue 48); the pass names the request and the check that sent it.
      const seen = ctx.answers?.firstSuccess(e.id, ORDER_BOOKS.has(e.id) ? askedNoDepth : undefined);
      if (seen) ctx.note(`judged the run's first success answer from ${e.id}, no request of its own: ${evidenceOf(seen.reply.exchange)}, sent by ${seen.check || 'the run'}`);
      const r = seen?.reply ?? (await call(ctx, e));
      // Paths and values the spec leaves open: a miss is the profile's, not the target's.
      if ((e.id === 'lend.create' || e.id === 'borrow.create') && refusesField(r, /maturity/)) profileGap(ctx, 'markets.maturities', r, `${e.method} ${e.path} in market ${orderMaturity(ctx.profile)}`);
      // Part 8: "Minimum … withdrawal amounts: not shown": under a small detection budget the profile keeps its default.
      if (e.id === 'user.withdraw' && refusesFloor(r)) profileGap(ctx, 'amounts.minWithdrawal', r, `${e.method} ${e.path} (${r.exchange.requestBody ?? ''})`);
      if (e.id === 'borrow.create' && refusesField(r, /borrowasset/)) profileGap(ctx, 'assets.borrow', r, `POST /borrow of ${pairAsset(ctx.profile)}`);
      if (e.id === 'public.rateSeries' && refusesField(r, /maturity/)) profileGap(ctx, 'markets.maturities', r, `GET ${e.path} of market ${orderMaturity(ctx.profile)}`);
      if (e.id === 'rates.get' && (r.status === 404 || r.status === 405 || refusesField(r, /route|path/))) profileGap(ctx, 'ratesPath', r, `GET ${ctx.profile.ratesPath}`);
      if ((e.id === 'webhooks.list' || e.id === 'webhooks.delete') && (r.status === 404 || r.status === 405 || refusesField(r, /route|path|method/))) profileGap(ctx, e.id === 'webhooks.delete' && !ctx.profile.webhooks.listAndDelete ? 'webhooks.deleteWithoutList' : 'webhooks.listAndDelete', r, `${e.method} ${e.path}`);
      if (e.id === 'public.orderbook' && (r.status === 404 || refusesField(r, /\bid\b|market/))) profileGap(ctx, 'markets.idSeparator', r, `the public order book of ${firstMarket(ctx.profile)}`);
      if (ANALYTICS.has(e.id) && refusesField(r, /period/)) profileGap(ctx, 'markets.periods', r, `GET ${e.path}?period=${periodOf(ctx.profile)}`);
      const body = expectSuccess(ctx, e, r);
      if (e.id === 'lend.create') {
        if (body && typeof body === 'object' && 'type' in body) fail('the create-lend response has no type', 'no `type` field', `type ${show((body as { type: unknown }).type)}`, r.exchange);
      }
      if (e.id === 'orderbook.get' || e.id === 'public.orderbook') {
        // The keyed book's body is not shown: its sides are where the profile says (book-levels.ts); a side not read there is not counted.
        const book = e.id === 'orderbook.get' ? authBookSides(ctx.profile, r.json).sides : (body as { lends?: unknown[]; borrows?: unknown[] });
        const depth = ORDERBOOK_DEPTH_DEFAULT;
        for (const side of SIDES) {
          if (!Array.isArray(book?.[side])) ctx.note(`the default depth was not judged for the ${side}: the book shows none where the profile says (orderbookLevels.${side})`);
          const n = Array.isArray(book?.[side]) ? book[side]!.length : 0;
          if (n > depth) fail('the order book holds at most the default depth of 10 levels per side', `≤ ${depth} ${side}`, `${n} ${side}`, r.exchange);
        }
      }
      return pass(seen ? { exchange: seen.reply.exchange } : {});
    },
  };
}

export function endpointChecks(profile: Profile): Check[] {
  return [...endpoints(profile).filter((e) => e.access !== 'sandbox').map(endpointCheck), ...(profile.ratesPath === null ? [unknownRatesPath()] : []), depthCheck(profile)];
}

/** GET rates where the profile does not know its path: stated as a skip, never dropped unseen. */
const unknownRatesPath = (): Check => ({
  id: 'endpoint.rates.get',
  title: 'GET <rates path> answers with the success status, JSON and the rates body',
  requirements: ['EP-rates', 'SHAPE-rates'],
  async run() {
    throw new CheckSkip('the spec does not show the get-rates path and the profile does not know it (ratesPath null: detection found it neither among its candidate paths nor in an OpenAPI document of the target); give it in a profile (ratesPath) to check it. The limiter checks use the authenticated order book instead, where its answers show the key\'s own bucket (they skip otherwise)', 'run-lacks');
  },
});
