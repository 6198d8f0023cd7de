import type { Profile } from '../../contract/index.ts';
import { legalAmount } from '../../contract/index.ts';
import { CheckSkip, fail, show, type CheckContext } from '../check.ts';
import { borrowBody, lendBody, validAddress } from '../checks/fixtures.ts';
import type { Reply } from '../http.ts';
import type { Cell } from './matrix.ts';

// How one cell of the matrix is driven and judged, by its object and verb alone (never by
// endpoint id, except for a request body a row needs): partner B (--api-key-2) calls the
// endpoint on partner A's (--api-key) object, and the answer and A's objects read back say
// whether B got access or had an effect. Spec-neutral: another partner's object answers 404 or
// 403 (which one is the profile's access.foreignStatus, a note when it differs), in whatever
// error body the target uses; only owner data in the answer, or a change A can see, fails.

export const A = 'partner A (--api-key)';
export const B = 'partner B (--api-key-2)';

/** Partner A's objects the matrix aims at, and what must not leak of them. */
export interface Owned {
  userId: string;
  positionId: string;
  /** The position's autoRollover as A read it: B's PATCH asks for the other value, so a change would show. */
  autoRollover?: boolean;
  webhook?: { id: string; url: string; secret: string };
}

/** What partner B made for itself in the create cells (its own u1's positions, its subscription). */
export interface Made {
  positions: Array<{ id: string; route: string }>;
  webhooks: string[];
}

/** A request body for a row that takes one, built for the cell's objects. A row with a body and no entry is a coverage failure (matrix.test.ts). */
export const SAMPLE_BODIES: Record<string, (ctx: CheckContext, o: Owned, b: { url: string; secret: string }) => unknown> = {
  'lend.create': (ctx, o) => lendBody(ctx, o.userId),
  'borrow.create': (ctx, o) => borrowBody(ctx, o.userId),
  'position.repay': () => ({}),
  'position.patch': (_ctx, o) => ({ autoRollover: !(o.autoRollover ?? true) }),
  'user.withdraw': (ctx) => ({ asset: 'USDC', amount: legalAmount(ctx.profile, 0, { base: '1', kind: 'withdrawal' }), destination: validAddress(ctx.profile) }),
  'webhooks.create': (_ctx, _o, b) => ({ url: b.url, events: ['position.liquidated'], secret: b.secret }),
};

/** The path parameters of a cell on A's objects (the call fills and encodes them), or why the cell cannot be driven. */
export function cellParams(c: Cell, o: Owned): { params: Record<string, string> } | { missing: string } {
  const params: Record<string, string> = {};
  const named: Record<string, string | undefined> = { positionId: o.positionId, userId: o.userId, webhookId: o.webhook?.id };
  for (const seg of c.endpoint.path.split('/')) {
    if (!(seg.startsWith('{') && seg.endsWith('}'))) continue;
    const param = seg.slice(1, -1);
    if (!(param in named)) return { missing: `no object of partner A fills ${c.endpoint.path}` };
    const value = named[param];
    if (value === undefined) return { missing: `partner A has no ${param} to aim at` };
    params[param] = value;
  }
  return { params };
}

/** The markers of A's data that must not appear in B's answer to this cell. */
export function ownerMarkers(c: Cell, o: Owned): Array<[string, string]> {
  switch (c.owns.object) {
    case 'position':
      return [[`${A}'s userId`, o.userId]];
    case 'webhook':
      return o.webhook ? [[`${A}'s subscription url`, o.webhook.url], [`${A}'s signing secret`, o.webhook.secret]] : [];
    default:
      // B names its own u1 (the same id as A's user): only A's position may not show.
      return [[`${A}'s position id`, o.positionId]];
  }
}

export const cellName = (c: Cell) => `${c.route} (${c.endpoint.id}, verb ${c.owns.verb})`;

/** 429 after the client's own retry: no verdict on this cell now. */
export function answered(r: Reply, c: Cell): Reply {
  if (r.status === 429) throw new CheckSkip(`${B}'s ${cellName(c)} answered 429: the rate limit leaves no room for the matrix now`);
  return r;
}

/** No access: an object named by id answers 404 or 403 (the profile's choice a note), and no answer shows A's data. */
export function judgeAccess(ctx: CheckContext, profile: Profile, c: Cell, o: Owned, r: Reply): void {
  const title = `${B} calling ${cellName(c)} on ${A}'s ${c.owns.object}`;
  const byId = c.owns.param !== undefined && c.owns.object !== 'user';
  if (byId) {
    // A webhook id is not a position: the spec shows no answer for an unknown one, and a target may refuse it as
    // any unknown thing (profile errors.unknownRoute, e.g. 400 invalid_request naming webhookId: soak seed 2).
    const refusals = new Set([404, 403, ...(c.owns.object === 'webhook' ? [profile.errors.unknownRoute.status] : [])]);
    const named = [...refusals].join(' or ');
    // A webhook route the target does not have at all (profile webhooks.listAndDelete missed, undetected under
    // a small budget: mutator seed 12 under Starter, a 400 "no route"): no access and no effect, its status the target's.
    if (c.owns.object === 'webhook' && noRoute(r)) {
      ctx.profileChoice({ option: 'webhooks.listAndDelete', expected: `${c.endpoint.method} ${c.endpoint.path}`, followed: false, received: `${r.status} ${show(r.json ?? r.text).slice(0, 120)}` }, r.exchange);
    } else if (c.owns.object === 'webhook' && webhookRefusal(r)) {
      // Part 7 shows no code for an unknown subscription: any 4xx with the error object refuses it (mutator seeds
      // 14, 24 under Starter: a 400 "no subscription", errors.unknownRoute undetected), the status noted; that it
      // had no effect is judged apart (A's subscription survives: checks.ts).
      if (!refusals.has(r.status)) ctx.profileChoice({ option: 'errors.unknownRoute', expected: `${named}`, followed: false, received: `${r.status} ${show(r.json ?? r.text).slice(0, 120)}` }, r.exchange);
    } else if (!refusals.has(r.status)) fail(`${title} is refused as not found or forbidden`, `${named} (profile access.foreignStatus: ${profile.access.foreignStatus}${refusals.size > 2 ? `; errors.unknownRoute: ${profile.errors.unknownRoute.status}` : ''})`, `${r.status} ${show(r.json ?? r.text).slice(0, 300)}`, r.exchange);
    ctx.profileChoice({ option: 'access.foreignStatus', expected: profile.access.foreignStatus, followed: String(r.status) === profile.access.foreignStatus, received: String(r.status) }, r.exchange);
  }
  for (const [what, value] of ownerMarkers(c, o)) {
    if (value && r.text.includes(value)) fail(`${title} learns nothing of it`, `no ${what} in the answer`, `${r.status}, the body holds ${what}${what.includes('secret') ? '' : ` ${value}`}`, r.exchange);
  }
}

/** An answer saying the route does not exist: a 405, or a 4xx whose message names the route or method (a webhook not found names neither). */
export function noRoute(r: Reply): boolean {
  if (r.status === 405) return true;
  const err = (r.json as { error?: { message?: unknown } } | undefined)?.error;
  return r.status >= 400 && r.status < 500 && /\b(route|method)\b/i.test(String(err?.message ?? ''));
}

/** A refusal of a webhook id: a 4xx with the error object, neither the key's nor the rate limit's. */
function webhookRefusal(r: Reply): boolean {
  const err = (r.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return r.status >= 400 && r.status < 500 && r.status !== 401 && r.status !== 429 && typeof err?.code === 'string' && typeof err.message === 'string';
}
