import { type PartnerEndpointId, type Profile } from '../../contract/index.ts';
import { CheckSkip, fail, pass, show, type Check, type CheckContext } from '../check.ts';
import { createLend, fundedUser } from '../checks/fixtures.ts';
import { webhookSecret } from '../checks/endpoints.ts';
import { findId } from '../body-id.ts';
import { learnFunds, showFunds, type Funds } from '../concurrency/funds.ts';
import type { Reply } from '../http.ts';
import { A, answered, B, cellName, cellParams, judgeAccess, noRoute, SAMPLE_BODIES, type Made, type Owned } from './cells.ts';
import { matrixCells, type Cell } from './matrix.ts';
import { webhookUrlCheck } from './webhook-url.ts';

// Part 1: a partner acts for its own users; nothing of another partner's is within its reach
// (OWASP API1, broken object-level authorization). The matrix (matrix.ts) is every row of the
// contract's table that owns an object; each is called with partner B's key on partner A's
// object, and A reads its objects back: no access, no effect. The same userId under both
// partners is two users: B's orders and withdrawals for u1 never move A's u1.

/** ctx.call on a row chosen at run time: its id is any of the table's, so its input is checked by the row, not the type. */
const callRow = (ctx: CheckContext, id: PartnerEndpointId, input: { params: Record<string, string>; key?: string; body?: unknown }): Promise<Reply> =>
  (ctx.call as (id: PartnerEndpointId, input: unknown) => Promise<Reply>)(id, input);

const ok = (r: Reply) => r.status >= 200 && r.status < 300;
type PositionState = { status?: unknown; autoRollover?: unknown; amount?: unknown };
/** Whether a position read as `then` has since matched: pending then, active now and carrying matchedAt (part 3), the rest as it was. */
function matchedMeanwhile(then: PositionState, after: Reply): boolean {
  const now = stateOf(after);
  const matchedAt = (after.json as { matchedAt?: unknown } | undefined)?.matchedAt;
  return then.status === 'pending' && now.status === 'active' && typeof matchedAt === 'string' && now.autoRollover === then.autoRollover;
}

const stateOf = (r: Reply): PositionState => {
  const p = (r.json ?? {}) as PositionState;
  return { status: p.status, autoRollover: p.autoRollover, amount: p.amount };
};

async function ownerFunds(ctx: CheckContext, userId: string): Promise<Funds | undefined> {
  // Exact funds in one request where insufficient_funds details give them; the search is too costly for the matrix's budget.
  // A user the profile names as pre-funded is shared with other checks, so its funds may move for them.
  return ctx.profile.errors.insufficientFundsDetails && !ctx.profile.funding.userIds.includes(userId) ? learnFunds(ctx, userId, 'USDC') : undefined;
}

async function registerOwn(ctx: CheckContext, notes: string[]): Promise<Owned['webhook']> {
  const url = `https://authz-a-${ctx.runId.replace(/[^a-z0-9-]/gi, '').toLowerCase()}.invalid/hook`;
  const secret = webhookSecret(ctx);
  const r = await ctx.call('webhooks.create', { body: { url, events: ['position.liquidated'], secret } });
  const id = ok(r) ? findId(r.json, ctx.profile.ids.webhook)?.value : undefined;
  if (!id) notes.push(`${A}'s subscription could not be made (${r.status} ${show(r.json ?? r.text).slice(0, 120)}), so the cells by webhook id are not driven`);
  return id ? { id, url, secret } : undefined;
}

async function matrix(ctx: CheckContext, profile: Profile): Promise<ReturnType<typeof pass>> {
  const key2 = ctx.key2!;
  const notes: string[] = [];
  const cells = matrixCells(profile);
  const userId = await fundedUser(ctx, 'authz');
  const lend = await createLend(ctx, userId);
  const o: Owned = { userId, positionId: lend.body.positionId };
  const read = () => ctx.call('position.get', { params: { positionId: o.positionId } });
  const base = await read();
  if (!ok(base)) fail(`${A} reads its own position ${o.positionId}`, 'a 2xx', `${base.status} ${show(base.json ?? base.text)}`, base.exchange);
  const before = stateOf(base);
  o.autoRollover = typeof before.autoRollover === 'boolean' ? before.autoRollover : undefined;
  const funds = await ownerFunds(ctx, userId);
  if (!funds) notes.push(`${A}'s funds are not compared (no insufficient_funds details in the profile, or a pre-funded user other checks share); its position and list are`);
  if (cells.some((c) => c.owns.object === 'webhook')) o.webhook = await registerOwn(ctx, notes);
  const deletable = profile.webhooks.listAndDelete || profile.webhooks.deleteWithoutList;
  const made: Made = { positions: [], webhooks: [] };
  let ownDeleted = false;
  try {
    return await drive();
  } finally {
    // Whatever a failed cell cut short: neither partner's subscription is left on the target (issue 39).
    if (deletable && o.webhook && !ownDeleted) await ctx.call('webhooks.delete', { params: { webhookId: o.webhook.id } }).catch(() => undefined);
    if (deletable) for (const id of made.webhooks) await ctx.call('webhooks.delete', { params: { webhookId: id }, key: key2 }).catch(() => undefined);
  }

  async function drive(): Promise<ReturnType<typeof pass>> {
  const bSub = { url: `https://authz-b-${ctx.runId.replace(/[^a-z0-9-]/gi, '').toLowerCase()}.invalid/hook`, secret: webhookSecret(ctx, 'partnerB') }; // B's own secret: under registrationSecret 'always' B's answer echoes it, and A's must not be found there

  const fundsUnmoved = async (c: Cell, r: Reply) => {
    if (!funds) return;
    const now = await learnFunds(ctx, userId, 'USDC');
    if (!now.lo.eq(funds.lo) || !now.hi.eq(funds.hi)) {
      fail(`${B} calling ${cellName(c)} for its own user ${userId} leaves ${A}'s user ${userId} untouched`, `${A}'s USDC funds of ${userId} ${showFunds(funds)}`, `${showFunds(now)} after ${B}'s request answered ${r.status}`, r.exchange);
    }
  };

  let driven = 0;
  // A's position as last read: what B's next change must leave it.
  let last = before;
  for (const c of cells) {
    const aim = cellParams(c, o);
    if ('missing' in aim) {
      notes.push(`${cellName(c)} not driven: ${aim.missing}`);
      continue;
    }
    const sample = SAMPLE_BODIES[c.endpoint.id];
    if (c.endpoint.body && !sample) fail(`every owned-object endpoint has a request body for the matrix`, `a sample body for ${c.endpoint.id}`, 'none (conformance/authz/cells.ts SAMPLE_BODIES)');
    const body = sample?.(ctx, o, bSub);
    // Each cell is a row of the table by its id, so B's answer is judged as that endpoint's where it arrives.
    const r = answered(await callRow(ctx, c.endpoint.id as PartnerEndpointId, { params: aim.params, key: key2, ...(body !== undefined ? { body } : {}) }), c);
    driven++;
    judgeAccess(ctx, profile, c, o, r);
    if (c.owns.verb === 'create') {
      const id = ok(r) ? findId(r.json, c.owns.object === 'webhook' ? profile.ids.webhook : 'positionId')?.value : undefined;
      if (id && c.owns.object === 'webhook') made.webhooks.push(id);
      else if (id) made.positions.push({ id, route: c.route });
      if (c.owns.object === 'user') await fundsUnmoved(c, r);
    }
    if (c.owns.verb === 'list' && c.owns.object === 'user' && ok(r)) {
      // B's own u1 shows B's own positions only (it may page; A's id is what must be absent).
      for (const p of made.positions) if (!r.text.includes(p.id)) notes.push(`${B}'s list of its user ${userId} did not show its own ${p.id} on the first page`);
    }
    if (c.owns.verb === 'change' && c.owns.object === 'position') {
      const after = await read();
      const now = stateOf(after);
      // A resting order matched meanwhile (pending → active, with matchedAt: part 3) is the market's
      // doing, a counterparty or the service's own liquidity on its clock, never a cancel, repay or
      // PATCH of B's: the cells after it compare against the matched state (a gate at 3600× saw
      // this, CI of session 16). Every other change is B's.
      if (ok(after) && matchedMeanwhile(last, after)) {
        notes.push(`${A}'s ${o.positionId} matched (${last.status} → ${now.status}) around ${B}'s ${cellName(c)}: the market's move, not B's; later cells compare against it`);
        last = now;
        continue;
      }
      if (!ok(after) || JSON.stringify(now) !== JSON.stringify(last)) {
        fail(`${B} calling ${cellName(c)} on ${A}'s position has no effect`, `${A}'s ${o.positionId} still ${show(last)}`, `${after.status} ${show(now)} after ${B}'s request answered ${r.status}`, r.exchange);
      }
    }
    if (c.owns.verb === 'change' && c.owns.object === 'user') await fundsUnmoved(c, r);
  }

  // A's own user: its list holds its position and none of what B made for B's u1.
  const list = await ctx.call('positions.list', { params: { userId }, query: { limit: 100 } });
  if (ok(list)) {
    const stray = made.positions.find((p) => list.text.includes(p.id));
    if (stray) fail(`${B}'s ${stray.route} for its own user ${userId} stays out of ${A}'s user ${userId}`, `${A}'s list of ${userId} without ${B}'s ${stray.id}`, `the list holds it: ${show(list.json).slice(0, 300)}`, list.exchange);
    if (!list.text.includes(o.positionId)) fail(`${A}'s list of ${userId} still holds its position after ${B}'s requests`, o.positionId, show(list.json).slice(0, 300), list.exchange);
  }
  // A's subscription survives B's requests; B's own is removed (both where the target deletes).
  // The list's body is not shown (part 4): A's subscription is found by its id or by its url (this
  // run's own address), and where the list shows neither (its id field dropped or renamed, mutator
  // seeds 20, 23, 30), A's own delete of it below is the evidence that it survived.
  let unseen: Reply | undefined;
  if (o.webhook && profile.webhooks.listAndDelete) {
    const subs = await ctx.call('webhooks.list');
    if (ok(subs) && !subs.text.includes(o.webhook.id) && !subs.text.includes(o.webhook.url)) unseen = subs;
  }
  if (unseen && !deletable) fail(`${B}'s DELETE /webhooks/{webhookId} on ${A}'s subscription has no effect`, `${A}'s list still holds ${o.webhook!.id} (or its url ${o.webhook!.url})`, show(unseen.json).slice(0, 300), unseen.exchange);
  if (o.webhook && deletable) {
    const d = await ctx.call('webhooks.delete', { params: { webhookId: o.webhook.id } });
    ownDeleted = ok(d);
    // No such route at all: the profile's webhooks.listAndDelete is not the target's (undetected under a
    // small budget, mutator seed 28 under Starter); the subscription's survival cannot be judged by a delete.
    if (noRoute(d)) {
      ctx.profileChoice({ option: 'webhooks.listAndDelete', expected: 'a DELETE /webhooks/{webhookId}', followed: false, received: `${d.status} ${show(d.json ?? d.text).slice(0, 120)}` }, d.exchange);
      notes.push(`DELETE /webhooks/{webhookId} answered ${d.status} as a route the target does not have (profile webhooks.listAndDelete differs): whether ${A}'s subscription survived ${B}'s requests was not judged by a delete`);
    } else {
      if (unseen && !ok(d)) fail(`${B}'s DELETE /webhooks/{webhookId} on ${A}'s subscription has no effect`, `${A}'s list still holds ${o.webhook.id} (or its url ${o.webhook.url}), or ${A} can still delete it`, `neither: the list ${show(unseen.json).slice(0, 200)}; the delete ${d.status}`, d.exchange);
      if (unseen && ok(d)) notes.push(`${A}'s list did not show its subscription by id or url (the list's body is not shown by the spec); ${A}'s own delete of it answered ${d.status}, so it survived ${B}'s requests`);
      if (!ok(d)) fail(`${A}'s subscription survives ${B}'s requests: ${A} can still delete it`, 'a 2xx', `${d.status} ${show(d.json ?? d.text).slice(0, 200)}`, d.exchange);
    }
  }
  if (!driven) throw new CheckSkip(`no cell of the matrix could be driven: ${notes.join('; ')}`);
  return pass({ notes: [`matrix: ${driven} of ${cells.length} cells driven (${cells.map((c) => c.endpoint.id).join(', ')})`, ...notes], exchange: base.exchange });
  }
}

export function authzChecks(profile: Profile): Check[] {
  return [
    {
      id: 'authz.matrix',
      title: "every endpoint that names, lists or changes a partner's object, called with the other partner's key, gives no access and has no effect; the same userId under two partners is two users",
      requirements: ['AUTH-isolation', 'ERR-position_not_found', 'HOOK-subscription'],
      needs: ['second-key', 'write'],
      run: (ctx) => matrix(ctx, profile),
    },
    webhookUrlCheck(profile),
  ];
}
