import { legalAmount, EVENT_TYPES, SLOW_ANSWER_MS } from '../../contract/index.ts';
import { fail, show, type CheckContext } from '../check.ts';
import { fundedUser, lendBody, validAddress } from '../checks/fixtures.ts';
import { hasPair, matchedPair, webhookSecret } from '../checks/endpoints.ts';
import { findId } from '../body-id.ts';
import { startHookReceiver, type HookReceiver } from './deliveries.ts';

// One run of ordinary requests whose deliveries the no-controls delivery checks all judge
// (delivery-checks.ts): three receivers of lendcheck's own are subscribed — partner A to every
// type, partner A to position.matched only (answering after 4 s), partner B to every type —
// then partner A's users trade (a lend and a crossing borrow) and withdraw, and partner B's
// user places a lend of its own (so B's receiver is shown to work). It runs once per run
// (ctx.shared) and is over within SCENARIO_BOUND_MS, at real time, with no sandbox controls.

/** How long after the orders the scenario waits for what they imply, at most. */
export const SCENARIO_BOUND_MS = 25_000;
/** A delivery that has not started within this long is not "near real time" (part 6). */
export const FIRST_DELIVERY_MS = 10_000;
/** After everything expected has arrived: how long stray deliveries (to B, of other types) are still watched for. */
export const SETTLE_MS = 1_500;

export interface Side {
  side: 'lend' | 'borrow';
  positionId: string;
  userId: string;
  /** The target's own record says it is matched (matchedAt, or status active). */
  matched: boolean;
}

export interface Scenario {
  secret: string;
  all: HookReceiver;
  matchedOnly: HookReceiver;
  other?: HookReceiver;
  /** Partner A's positions of the match, with the target's record of them. */
  sides: Side[];
  /** Partner A's withdrawal: its user, and its id when the answer names one. */
  withdrawal?: { userId: string; id?: string };
  /** Partner B's own lend, which B's receiver must get. */
  own2?: { userId: string; positionId: string };
  /** Why something could not be caused (each a reason a check may skip with). */
  notes: string[];
  waitedMs: number;
}

const isMatched = (json: unknown): boolean => {
  const p = json as { matchedAt?: unknown; status?: unknown } | undefined;
  return typeof p?.matchedAt === 'string' || p?.status === 'active';
};

async function subscribe(ctx: CheckContext, rx: HookReceiver, events: string[], secret: string, key?: string): Promise<string | undefined> {
  const r = await ctx.call('webhooks.create', { body: { url: rx.url, events, secret }, ...(key ? { key } : {}) });
  if (r.status < 200 || r.status > 299) fail(`POST /webhooks subscribes ${rx.label}`, 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
  return findId(r.json, ctx.profile.ids.webhook)?.value;
}

async function readSides(ctx: CheckContext, sides: Side[]): Promise<void> {
  for (const s of sides) {
    if (s.matched) continue;
    const r = await ctx.call('position.get', { params: { positionId: s.positionId } });
    s.matched = r.status >= 200 && r.status < 300 && isMatched(r.json);
  }
}

const has = (rx: HookReceiver | undefined, pred: (text: string) => boolean) => !!rx?.got.some((d) => pred(d.raw.toString('utf8')));

/** The scenario when a check of this run has already started it, else undefined (nothing is sent). */
export function startedScenario(ctx: CheckContext): Promise<Scenario> | undefined {
  return ctx.shared.get('hooks.scenario') as Promise<Scenario> | undefined;
}

export function scenario(ctx: CheckContext): Promise<Scenario> {
  const k = 'hooks.scenario';
  let p = ctx.shared.get(k) as Promise<Scenario> | undefined;
  if (!p) {
    p = runScenario(ctx);
    ctx.shared.set(k, p);
  }
  return p;
}

async function runScenario(ctx: CheckContext): Promise<Scenario> {
  const secret = webhookSecret(ctx);
  const notes: string[] = [];
  const all = await startHookReceiver("partner A's subscription to every event type");
  const matchedOnly = await startHookReceiver(`partner A's subscription to position.matched only (answering 200 after ${SLOW_ANSWER_MS / 1000} s)`, SLOW_ANSWER_MS);
  const other = ctx.key2 ? await startHookReceiver("partner B's subscription to every event type") : undefined;
  const subs: Array<{ id?: string; key?: string }> = [];
  try {
    subs.push({ id: await subscribe(ctx, all, [...EVENT_TYPES], secret) });
    subs.push({ id: await subscribe(ctx, matchedOnly, ['position.matched'], secret) });
    if (other) subs.push({ id: await subscribe(ctx, other, [...EVENT_TYPES], secret, ctx.key2), key: ctx.key2 });
    else notes.push('no second partner key: partner isolation of deliveries cannot be seen');

    // The run's shared pair when no check has made it yet (the lifecycle checks read it after): its
    // orders are placed here, while the receivers listen; else a pair of the scenario's own.
    const pair = hasPair(ctx) ? await matchedPair(ctx, 'hooks-deliver') : await matchedPair(ctx);
    const sides: Side[] = [
      { side: 'lend', positionId: pair.lendId, userId: pair.lender, matched: false },
      { side: 'borrow', positionId: pair.borrowId, userId: pair.borrower, matched: false },
    ];
    const t0 = Date.now();
    await readSides(ctx, sides);

    let withdrawal: Scenario['withdrawal'];
    const wu = await fundedUser(ctx, 'hooks-withdraw');
    const w = await ctx.call('user.withdraw', { params: { userId: wu }, body: { asset: 'USDC', amount: legalAmount(ctx.profile, 0, { base: '10', kind: 'withdrawal' }), destination: validAddress(ctx.profile) } });
    if (w.status >= 200 && w.status < 300) withdrawal = { userId: wu, id: findId(w.json, 'withdrawalId')?.value ?? findId(w.json)?.value };
    else notes.push(`the withdrawal was refused (${w.status} ${show(w.json ?? w.text).slice(0, 120)}), so no withdrawal.completed is expected`);

    let own2: Scenario['own2'];
    if (ctx.key2) {
      // The same userId as partner A's withdrawing user: B's u1 is its own user, and A's
      // withdrawal.completed about u1 must still never reach B (delivery-checks.ts).
      const named = ctx.profile.funding.userIds;
      const u2 = named.length ? named[named.length - 1]! : wu;
      const l = await ctx.call('lend.create', { key: ctx.key2, body: lendBody(ctx, u2) });
      const id = findId(l.json, 'positionId')?.value;
      if (l.status >= 200 && l.status < 300 && id) own2 = { userId: u2, positionId: id };
      else notes.push(`partner B's own lend was refused (${l.status} ${show(l.json ?? l.text).slice(0, 120)}), so B's receiver cannot be shown to work`);
    }

    // Until every delivery the orders imply has arrived and been answered, or the bound.
    const expected = () => {
      const want: boolean[] = [];
      for (const s of sides) if (s.matched) want.push(has(all, (t) => t.includes('position.matched') && t.includes(s.positionId)), has(matchedOnly, (t) => t.includes(s.positionId)));
      want.push(has(all, (t) => t.includes('position.created') && t.includes(pair.lendId)));
      if (withdrawal) want.push(has(all, (t) => t.includes('withdrawal.completed') && t.includes(withdrawal!.userId)));
      if (own2) want.push(has(other, (t) => t.includes(own2!.positionId)));
      return want.every(Boolean) && matchedOnly.pending() === 0;
    };
    let lastRead = Date.now();
    for (;;) {
      const waited = Date.now() - t0;
      if (expected() || waited > SCENARIO_BOUND_MS) break;
      // Nothing at all at any receiver: the failure is certain, no need to wait out the bound.
      if (waited > FIRST_DELIVERY_MS && [all, matchedOnly, other].every((r) => !r || r.got.length === 0)) break;
      if (Date.now() - lastRead > 2_000 && sides.some((s) => !s.matched)) {
        await readSides(ctx, sides);
        lastRead = Date.now();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (all.got.length || matchedOnly.got.length) await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { secret, all, matchedOnly, other, sides, withdrawal, own2, notes, waitedMs: Date.now() - t0 };
  } finally {
    for (const s of subs) if (s.id && ctx.profile.webhooks.listAndDelete) await ctx.call('webhooks.delete', { params: { webhookId: s.id }, ...(s.key ? { key: s.key } : {}) }).catch(() => undefined);
    await Promise.all([all.close(), matchedOnly.close(), other?.close()]);
  }
}
