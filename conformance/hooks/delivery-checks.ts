import { eventEnvelope, EVENT_TYPES, ownAnswerLate, positionMatchedData, SIGNATURE_HEADER, SLOW_ANSWER_MS, type Profile } from '../../contract/index.ts';
import type { SignatureScheme } from '../../signing/signature.ts';
import { verifyDelivery } from './verify-delivery.ts';
import { CheckSkip, fail, issues, pass, show, type Check, type CheckContext } from '../check.ts';
import { asExchange, deliveriesDetail, eventOf, named, type HookReceiver } from './deliveries.ts';
import { scenario, SCENARIO_BOUND_MS, type Scenario } from './scenario.ts';

// Part 6's promises to a partner about whom, what and how events are sent, checked with no
// sandbox controls: receivers of lendcheck's own get what ordinary requests cause (scenario.ts),
// and each check judges one promise over those deliveries. Partner A is --api-key, partner B
// --api-key-2. A failure names the event, its user and the partner.

const A = 'partner A (--api-key)';
const B = 'partner B (--api-key-2)';

/** Partner A's users and positions in the scenario: what B must never hear about. */
function partnerAOwn(s: Scenario): { users: Set<string>; ids: string[] } {
  const users = new Set([...s.sides.map((x) => x.userId), ...(s.withdrawal ? [s.withdrawal.userId] : [])]);
  // A userId named in the profile's funding list may be B's user too: only ids are then certain.
  if (s.own2) users.delete(s.own2.userId);
  return { users, ids: [...s.sides.map((x) => x.positionId), ...(s.withdrawal?.id ? [s.withdrawal.id] : [])] };
}

const isolation = (): Check => ({
  id: 'hooks.partner-isolation',
  title: "each event reaches only the subscriptions of the partner whose user it concerns: partner B's receiver never gets partner A's events",
  requirements: ['AUTH-isolation', 'HOOK-subscription'],
  needs: ['write', 'second-key'],
  async run(ctx) {
    const s = await scenario(ctx);
    const rx = s.other!;
    const mine = partnerAOwn(s);
    // B made no withdrawal: one about the userId both partners use is A's (B's u1 is another user of the same id).
    const sharedWithdrawal = (e: ReturnType<typeof eventOf>) => !!s.withdrawal && e?.type === 'withdrawal.completed' && e.userId === s.withdrawal.userId;
    for (const d of rx.got) {
      const e = eventOf(d);
      const text = d.raw.toString('utf8');
      const id = mine.ids.find((x) => text.includes(x));
      if (id || (e?.userId && mine.users.has(e.userId)) || sharedWithdrawal(e)) {
        fail(
          `${named(e)} concerns ${A}'s user and is delivered to ${B}'s subscription`,
          `${A}'s events only at ${A}'s subscriptions`,
          `delivered to ${B}'s receiver${e?.userId && mine.users.has(e.userId) ? ` (user ${e.userId} is ${A}'s)` : ''}${id ? ` (the body names ${A}'s ${id})` : ''}`,
          asExchange(d, rx),
          deliveriesDetail(rx),
        );
      }
    }
    // No leak seen counts only if B's receiver is shown to work: it got B's own event.
    if (!s.own2) throw new CheckSkip(`${B}'s receiver could not be shown to work: ${s.notes.find((n) => n.includes('partner B')) ?? 'no lend of its own'}`);
    const own = rx.got.find((d) => d.raw.toString('utf8').includes(s.own2!.positionId));
    if (!own) {
      fail(`${B}'s own event is delivered to ${B}'s subscription`, `position.created for ${B}'s position ${s.own2.positionId} (user ${s.own2.userId})`, `none in ${Math.round(s.waitedMs / 1000)} s (${rx.got.length} deliveries)`, undefined, deliveriesDetail(rx));
    }
    // Every event type the target emits is covered where A's own receiver got one: those B's was watched for.
    const seen = new Set(s.all.got.map((d) => eventOf(d)?.type).filter((t): t is string => !!t));
    const unseen = ctx.profile.events.emitted.filter((t) => !seen.has(t));
    const notes = [`${A}'s event types kept from ${B}: ${[...seen].sort().join(', ') || 'none'}`];
    if (unseen.length) notes.push(`not caused without controls in this run, so not watched: ${unseen.join(', ')} (maturity, rollover and liquidation need time or price moves)`);
    // The pass's evidence: B's own delivery (the scenario's requests were made by the check that ran it).
    return pass({ notes, exchange: asExchange(own!, rx) });
  },
});

const types = (): Check => ({
  id: 'hooks.subscribed-types',
  title: 'a subscription gets only the event types it listed: one subscribed to position.matched only gets nothing else',
  requirements: ['HOOK-subscription', 'HOOK-event-types'],
  needs: ['write'],
  async run(ctx) {
    const s = await scenario(ctx);
    const rx = s.matchedOnly;
    for (const d of rx.got) {
      const e = eventOf(d);
      if (e?.type !== 'position.matched') fail(`${A}'s subscription to position.matched only gets position.matched only`, 'position.matched deliveries only', `${named(e)}`, asExchange(d, rx), deliveriesDetail(rx));
    }
    if (!s.sides.some((x) => x.matched)) throw new CheckSkip(`the target did not report either side of the crossing orders matched within ${SCENARIO_BOUND_MS / 1000} s, so no position.matched was due`);
    if (!rx.got.length) fail(`${A}'s subscription to position.matched gets the match`, `position.matched for ${s.sides.filter((x) => x.matched).map((x) => x.positionId).join(' or ')}`, `no delivery in ${Math.round(s.waitedMs / 1000)} s`);
    return pass({ exchange: asExchange(rx.got[0]!, rx) });
  },
});

const eachSide = (): Check => ({
  id: 'hooks.matched-each-side',
  title: "a match delivers position.matched for each side's position of the partner, with positionId, userId, rate, amount and maturity",
  requirements: ['HOOK-matched-data', 'HOOK-event-types'],
  needs: ['write'],
  async run(ctx) {
    const s = await scenario(ctx);
    const due = s.sides.filter((x) => x.matched);
    if (!due.length) throw new CheckSkip(`the target did not report either side of the crossing orders matched within ${SCENARIO_BOUND_MS / 1000} s (GET /positions/{id}: no matchedAt), so no position.matched was due`);
    const matched = s.all.got.map((d) => ({ d, e: eventOf(d) })).filter((x) => x.e?.type === 'position.matched');
    for (const side of due) {
      const got = matched.find((x) => x.e!.positionId === side.positionId)!;
      if (!got) {
        const others = matched.map((x) => x.e!.positionId).join(', ') || 'none';
        fail(`position.matched is delivered for the ${side.side} side of the match`, `position.matched for ${A}'s ${side.side} position ${side.positionId} of user ${side.userId}`, `none in ${Math.round(s.waitedMs / 1000)} s (position.matched received for: ${others})`, undefined, deliveriesDetail(s.all));
      }
      const p = positionMatchedData.safeParse(got.e!.data);
      if (!p.success) fail(`position.matched data holds the fields part 6 lists (${side.side} side)`, 'positionId, userId, rate (number), amount (decimal string), maturity (ISO 8601 UTC)', `${issues(p.error)} in ${named(got.e)}: ${show(got.e!.data)}`, asExchange(got.d, s.all));
      if (p.data!.userId !== side.userId) fail(`position.matched names the position's user (${side.side} side)`, side.userId, `${show(p.data!.userId)} in ${named(got.e)}`, asExchange(got.d, s.all));
    }
    const notDue = s.sides.filter((x) => !x.matched);
    if (notDue.length) ctx.note(`not matched by the target's own record, so not expected: ${notDue.map((x) => `${x.side} ${x.positionId}`).join(', ')}`);
    return pass({ exchange: asExchange(matched.find((x) => x.e!.positionId === due[0]!.positionId)!.d, s.all) });
  },
});

const answerWindow = (): Check => ({
  id: 'hooks.answer-window',
  title: `a receiver that answers 200 after ${SLOW_ANSWER_MS / 1000} s (inside part 6's 5 s) is counted as delivered: the sender waits for the answer and sends no retry`,
  requirements: ['HOOK-retry-count', 'HOOK-post'],
  needs: ['write'],
  async run(ctx) {
    const s = await scenario(ctx);
    const rx = s.matchedOnly;
    // A hang-up after the planned answer time is our own late answer (a loaded machine's timers), not judged.
    const early = rx.got.find((d) => d.gaveUpAt !== undefined && d.gaveUpAt - d.at < SLOW_ANSWER_MS);
    if (early) {
      const after = ((early.gaveUpAt! - early.at) / 1000).toFixed(1);
      fail(`the sender waits 5 s for the receiver's 200 (${named(eventOf(early))})`, `the connection held until the 200 at ${SLOW_ANSWER_MS / 1000} s`, `the sender hung up after ${after} s, before the answer: a receiver answering within 5 s is counted as failed`, asExchange(early, rx), deliveriesDetail(rx));
    }
    // A second delivery of the same event, matched by type and position, else id (a retry under a new id is the same event).
    // Not judged after our own late answer (a loaded machine's timers): the 200 may have reached a correct sender after its 5 s.
    const firstOf = new Map<string, (typeof rx.got)[number]>();
    for (const d of rx.got) {
      const e = eventOf(d);
      const k = e?.positionId ? `${e.type ?? ''}|${e.positionId}` : (e?.id ?? '');
      if (!k) continue;
      const first = firstOf.get(k);
      if (!first) {
        firstOf.set(k, d);
        continue;
      }
      const again = `${named(e)} again ${((d.at - first.at) / 1000).toFixed(1)} s after the first`;
      if (ownAnswerLate(first)) ctx.note(`${again}, whose 200 this receiver sent ${((first.answeredAt! - first.at) / 1000).toFixed(1)} s after it arrived (late: a loaded machine): not judged`);
      else fail(`an event answered 200 in ${SLOW_ANSWER_MS / 1000} s is not sent again`, 'one delivery', again, asExchange(d, rx), deliveriesDetail(rx));
    }
    const answered = rx.got.filter((d) => d.answeredAt !== undefined);
    if (!answered.length) {
      if (!s.sides.some((x) => x.matched)) throw new CheckSkip('the target did not report the crossing orders matched, so no position.matched was due to the slow receiver');
      const late = rx.got.find((d) => d.gaveUpAt !== undefined);
      if (late) throw new CheckSkip(`the sender hung up after ${((late.gaveUpAt! - late.at) / 1000).toFixed(1)} s, when this receiver's own answer, due at ${SLOW_ANSWER_MS / 1000} s, was late (a loaded machine): not judged`);
      fail('a delivery reaches the slow receiver and waits for its answer', `a position.matched answered after ${SLOW_ANSWER_MS / 1000} s`, `${rx.got.length} deliveries, none answered`, undefined, deliveriesDetail(rx));
    }
    ctx.note(`${answered.length} delivery(ies) held open and answered 200 after ${SLOW_ANSWER_MS / 1000} s; a retry is due only a minute later at real time, past this run's watch: only a retry within ${Math.round(s.waitedMs / 1000)} s would have been seen`);
    return pass({ exchange: asExchange(answered[0]!, rx) });
  },
});

/** One delivery against the envelope, the signature over its raw bytes and the data it must hold. */
function judgeOne(ctx: CheckContext, profile: Profile, scheme: SignatureScheme | null, s: Scenario, rx: HookReceiver, d: HookReceiver['got'][number]): void {
  const e = eventOf(d);
  const dx = asExchange(d, rx);
  const who = `${named(e)} at ${rx.label}`;
  if (d.method !== 'POST') fail(`deliveries are HTTP POSTs (${who})`, 'POST', d.method, dx);
  const sig = d.headers[SIGNATURE_HEADER];
  if (typeof sig !== 'string' || !sig) fail(`each delivery carries x-service-signature (${who})`, 'the header', show(sig), dx);
  // As of its arrival, as a receiver verifies: the judging comes seconds later, past a short replay window.
  const v = verifyDelivery(ctx, { raw: d.raw, headers: d.headers, secret: s.secret, now: Math.floor(d.at / 1000) }, scheme, dx);
  if (!v.ok) {
    fail(`the signature verifies over the raw body with the subscription secret (${who}; profile signature.scheme=${scheme})`, 'a valid signature over the bytes received', `verification failed: ${v.reason}`, dx);
  }
  let env: unknown;
  try {
    env = JSON.parse(d.raw.toString('utf8'));
  } catch {
    fail(`the delivery body is JSON (${rx.label})`, 'a JSON envelope', show(d.raw.toString('utf8').slice(0, 200)), dx);
  }
  const p = eventEnvelope.safeParse(env);
  if (!p.success) fail(`the event envelope is {id, type, timestamp (ISO 8601 UTC), data} (${who})`, 'the part 6 envelope', `${issues(p.error)} in ${show(env)}`, dx);
  if (p.data!.type === 'position.matched') {
    const m = positionMatchedData.safeParse(p.data!.data);
    if (!m.success) fail(`position.matched data holds positionId, userId, rate, amount, maturity (${who})`, 'the part 6 fields', `${issues(m.error)} in ${show(p.data!.data)}`, dx);
  }
}

const everyDelivery = (profile: Profile): Check => ({
  id: 'hooks.every-delivery',
  title: 'every delivery, of every event type seen, is a POST of the {id, type, timestamp, data} envelope signed over its raw bytes, with the data part 6 lists',
  requirements: ['HOOK-post', 'HOOK-envelope', 'HOOK-signature-header', 'HOOK-verify-raw', 'HOOK-matched-data', 'HOOK-event-types', 'CONV-timestamp-utc'],
  needs: ['write'],
  async run(ctx) {
    // An unknown scheme (part 6 leaves it open, null) is never a guess: each delivery verifies under a known variant, or the check skips (verify-delivery.ts).
    const scheme = profile.signature.scheme;
    const s = await scenario(ctx);
    const rxs = [s.all, s.matchedOnly, ...(s.other ? [s.other] : [])];
    const total = rxs.reduce((n, r) => n + r.got.length, 0);
    if (!total) fail('the events ordinary requests cause are delivered in near real time', 'deliveries of position.created, position.matched, withdrawal.completed', `none at any receiver in ${Math.round(s.waitedMs / 1000)} s`);
    // In arrival order: the first bad delivery ends the check, with its reason.
    const all = rxs.flatMap((rx) => rx.got.map((d) => ({ rx, d }))).sort((x, y) => x.d.at - y.d.at);
    for (const { rx, d } of all) judgeOne(ctx, profile, scheme, s, rx, d);
    const seen = [...new Set(all.map((x) => eventOf(x.d)?.type).filter((t): t is string => !!t && (EVENT_TYPES as readonly string[]).includes(t)))];
    ctx.note(`${total} deliveries judged; event types seen: ${seen.join(', ')}`);
    return pass({ exchange: asExchange(all[0]!.d, all[0]!.rx) });
  },
});

export function deliveryChecks(profile: Profile): Check[] {
  return [everyDelivery(profile), isolation(), types(), eachSide(), answerWindow()];
}
