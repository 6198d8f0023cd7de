import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultProfile, KEY_PREFIX, legalAmount, WEBHOOK_RETRY_DELAYS_MS, webhookDeletable, UNKNOWN_SCHEME_REASON, resolveCall, type CallInput, type PartnerEndpointId, type Profile } from '../../contract/index.ts';
import { findId } from '../../contract/body-id.ts';
import { restingRate } from '../../contract/resting-rate.ts';
import { generateWebhookSecret, SIGNATURE_SCHEMES } from '../../signing/signature.ts';
import * as results from '../../kernel/results.ts';
import { verifyWebhook } from '../../signing/signature.ts';
import { DEFAULT_TOLERANCE, type Tolerance } from '../validate/validate.ts';
import { judge, type Expect, type Seen } from './judge.ts';
import { judgeSlow, type SlowJudgement } from './judge-slow.ts';
import { senderWindowSeconds } from '../sender-window.ts';
import { SLOW_ANSWER_MS } from '../../contract/index.ts';
import { startRecordingReceiver, type Arrival } from '../../receiver/recording.ts';
import { selfCommand } from '../../kernel/self-command.ts';
import { orderMaturity } from '../../contract/order-maturity.ts';

// The retry schedule at real time, in a CI-sized budget: against a target with no test clock
// (every real partner sandbox), one event's first delivery and its first retries are watched.
// A receiver of lendcheck's own answers 500 to the first delivery of one lend's
// position.created and to each retry before the last one watched, then 200; each retry must
// come its delay after the failed answer (within the tolerance), with the same event id, the
// same body and a valid signature, and the 200 must end them. Retries 1 and 2 (1 min, 5 min)
// take about 6 minutes; the later ones (30 min, 2 h, 24 h) are reported not observed, with the
// command that observes them, never passed.

export const DEFAULT_WATCHED_RETRIES = 2;
/** A first delivery not here 30 s after the order is certainly missing ("near real time", part 6). */
export const FIRST_DELIVERY_MS = 30_000;
export const QUIET_MS = 10_000;
/** Where the rest of the schedule is observed, named as the reader runs lendcheck (kernel/self-command.ts). */
export const laterCommand = (): string => `\`${selfCommand()} chaos receive --secret <whsec> --db chaos.db\` subscribed to the target for a day or more, then \`${selfCommand()} chaos validate --db chaos.db\``;

export interface RetryWatchOptions {
  baseUrl: string;
  apiKey: string;
  profile?: Profile;
  allowLive?: boolean;
  /** Retries watched, 1..5 (default 2: 1 min and 5 min, about 6 minutes). */
  retries?: number;
  tolerance?: Tolerance;
  /** Host the receiver listens on, as the target must reach it (loopback by default). */
  receiverHost?: string;
  /** Tests only: the shortened schedule a test sandbox was given. The product always expects the spec's. */
  expectedDelaysMs?: readonly number[];
  firstMs?: number;
  quietMs?: number;
  log?: (line: string) => void;
}

/** Calls an endpoint of the contract's table by its id (contract/call.ts): method and path from the table, under the run's profile. */
async function call<Id extends PartnerEndpointId>(o: RetryWatchOptions, id: Id, input: CallInput<Id> = {} as CallInput<Id>): Promise<{ status: number; json: any }> {
  const { params, body } = input as { params?: Record<string, string>; body?: unknown };
  const { method, path } = resolveCall(o.profile ?? defaultProfile, id, params);
  const res = await fetch(o.baseUrl.replace(/\/$/, '') + path, {
    method,
    headers: { authorization: `Bearer ${o.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  } catch {
    return { status: res.status, json: text };
  }
}

const eventIdOf = (raw: string): string | undefined => {
  try {
    const id = (JSON.parse(raw) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
};

export async function runRetryWatch(o: RetryWatchOptions): Promise<results.PartResult> {
  const startedAt = new Date();
  const log = o.log ?? (() => {});
  const profile = o.profile ?? defaultProfile;
  const retries = Math.min(5, Math.max(1, o.retries ?? DEFAULT_WATCHED_RETRIES));
  // An unknown scheme (part 6 leaves it open): every retry is judged on a verified delivery, so
  // the watch skips before any request, with the reason and the option; never a guess.
  const scheme = profile.signature.scheme;
  if (scheme === null) return { part: 'chaos', name: 'webhook retries at real time', status: 'skipped', skipReason: UNKNOWN_SCHEME_REASON, target: o.baseUrl, profile: profile.name, startedAt: startedAt.toISOString(), durationMs: 0, checks: [], figures: {} };
  if (o.apiKey.startsWith(KEY_PREFIX.production) && !o.allowLive) throw new Error(`refusing a ${KEY_PREFIX.production} key: pass --allow-live to run against production`);
  const secret = generateWebhookSecret();
  // A user of this run only, unless the profile names the funded users to trade with.
  const named = profile.funding.userIds;
  const userId = named[0] ?? `retrywatch_${randomBytes(4).toString('hex')}`;
  const unique = !named.length;
  let positionId: string | undefined;
  let lendAnswered = false;
  // Ours: the lend's position.created, found by body (its position, or this run's user), not by event id.
  const ours = (raw: string) => raw.includes('position.created') && (positionId ? raw.includes(positionId) : unique ? raw.includes(userId) : !lendAnswered);
  // The second event, answered 200 after 3 s (judge-slow.ts): a user of its own, so it is told apart before its order is answered.
  const slowUser = unique ? `retrywatchslow_${randomBytes(4).toString('hex')}` : undefined;
  let slowId: string | undefined;
  const slow = (raw: string) => !!slowUser && raw.includes('position.created') && (slowId ? raw.includes(slowId) : raw.includes(slowUser));
  let count = 0;
  const rx = await startRecordingReceiver({
    path: '/lendcheck-retry-watch',
    host: o.receiverHost,
    decide: (a) => {
      const raw = a.raw.toString('utf8');
      if (slow(raw)) return { status: 200, afterMs: SLOW_ANSWER_MS };
      return ours(raw) ? (count++ < retries ? 500 : 200) : 200;
    },
  });
  let webhookId: string | undefined;
  try {
    const reg = await call(o, 'webhooks.create', { body: { url: rx.url, events: ['position.created'], secret } });
    if (reg.status < 200 || reg.status > 299) throw new Error(`POST /webhooks answered ${reg.status}: ${JSON.stringify(reg.json)?.slice(0, 300)}`);
    // The registration result is not shown in the spec: its id where the profile names it, else the one id-like field.
    webhookId = findId(reg.json, profile.ids.webhook)?.value;
    // The amount from the profile's bounds (its minimum order may exceed 100); the rate below its rate bound (issue 47).
    const restRate = restingRate(profile.bounds.rateBelow).rate ?? 0.01;
    const lend = await call(o, 'lend.create', { body: { userId, asset: 'USDC', amount: legalAmount(profile), rate: restRate, maturity: orderMaturity(profile) } });
    lendAnswered = true;
    if (lend.status < 200 || lend.status > 299 || typeof lend.json?.positionId !== 'string') throw new Error(`POST /lend answered ${lend.status}: ${JSON.stringify(lend.json)?.slice(0, 300)}`);
    positionId = lend.json.positionId as string;
    const causedAt = Date.now();
    let slowNote: string | undefined;
    if (slowUser) {
      const l2 = await call(o, 'lend.create', { body: { userId: slowUser, asset: 'USDC', amount: legalAmount(profile), rate: restRate, maturity: orderMaturity(profile) } });
      if (l2.status >= 200 && l2.status < 300 && typeof l2.json?.positionId === 'string') slowId = l2.json.positionId as string;
      else slowNote = `the second lend was refused (${l2.status}), so no delivery could be answered after ${SLOW_ANSWER_MS / 1000} s`;
    } else slowNote = 'the profile names the funded users (funding.userIds): a second event cannot be told apart before its order is answered';
    const delaysMs = o.expectedDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
    const tolerance = o.tolerance ?? DEFAULT_TOLERANCE;
    const e: Expect = {
      causedAt, retries, delaysMs, tolerance, from: profile.webhooks.retryDelayFrom,
      firstMs: o.firstMs ?? FIRST_DELIVERY_MS, quietMs: o.quietMs ?? QUIET_MS, laterCommand: laterCommand(), subject: `position.created for ${positionId} (user ${userId} of the --api-key partner)`,
    };
    const waitMs = delaysMs.slice(0, retries).reduce((a, b) => a + b, 0);
    log(`watching ${e.subject}: delivery answered 500, retries 1..${retries} expected after ${delaysMs.slice(0, retries).map((d) => `${d / 1000} s`).join(', ')} (about ${Math.ceil((waitMs + e.quietMs) / 60_000)} min)`);
    const seen = (a: Arrival): Seen => {
      const raw = a.raw.toString('utf8');
      // Verified as of its arrival, as a receiver does: a timestamped scheme's replay window runs from then, not from the judging;
      // and a sender's window is its retry schedule (sender-window.ts): retries may keep the first attempt's timestamp.
      const when = { toleranceSeconds: senderWindowSeconds(profile), now: Math.floor(a.at / 1000) };
      const v = verifyWebhook(a.raw, a.headers, secret, { ...when, scheme });
      // Another known scheme verifying it is the profile's miss, not the target's: counted as verified.
      const other = !v.ok && SIGNATURE_SCHEMES.some((x) => x !== scheme && verifyWebhook(a.raw, a.headers, secret, { ...when, scheme: x }).ok);
      return { at: a.at, end: a.answeredAt ?? a.at, raw, eventId: eventIdOf(raw), sigOk: v.ok || other, ...(v.ok || other ? {} : { sigReason: v.reason }), status: a.status };
    };
    const bound = causedAt + e.firstMs + waitMs * 1.05 + retries * 5_000 + e.quietMs + 30_000;
    let j = judge([], e, Date.now());
    let sj: SlowJudgement = { done: !slowId };
    const slowE = (): Expect => ({ ...e, subject: `position.created for ${slowId ?? '?'}, user ${slowUser ?? '?'} of the --api-key partner` });
    const slowOf = () => rx.got.filter((a) => slow(a.raw.toString('utf8'))).map((a) => ({ at: a.at, eventId: eventIdOf(a.raw.toString('utf8')), answeredAt: a.answeredAt, gaveUpAt: a.gaveUpAt }));
    let lastLog = 0;
    let mine: Seen[] = [];
    for (;;) {
      mine = rx.got.filter((a) => ours(a.raw.toString('utf8'))).map(seen);
      j = judge(mine, e, Date.now());
      if (slowId && !sj.done) sj = judgeSlow(slowOf(), slowE(), Date.now());
      // Either rule failing is certain: the watch ends there; else it ends when both are judged.
      const failedNow = [...j.checks, ...(sj.check ? [sj.check] : [])].some((c) => c.status === 'failed');
      if ((j.done && sj.done) || failedNow || Date.now() > bound) break;
      if (Date.now() - lastLog > 60_000) {
        lastLog = Date.now();
        log(`${Math.round((Date.now() - causedAt) / 1000)} s: ${mine.length} deliver${mine.length === 1 ? 'y' : 'ies'} of the watched event so far`);
      }
      await sleep(100);
    }
    // What is still pending at the end is reported not observed, never judged.
    if (!j.done) j = judge(mine, e, Date.now(), true);
    if (slowId && !sj.done) sj = judgeSlow(slowOf(), slowE(), Date.now(), true);
    const slowCheck = sj.check ?? { id: 'retries.answer-window', title: `a delivery answered 200 after ${SLOW_ANSWER_MS / 1000} s is delivered: no retry`, requirements: ['HOOK-retry-count'], status: 'skipped' as const, durationMs: 0, message: `not observed: ${slowNote ?? 'no second event'}`, notes: [] };
    j.checks.splice(1, 0, slowCheck);
    const failed = j.checks.some((c) => c.status === 'failed');
    const figures: Record<string, number | string> = { retriesWatched: retries, waitedMs: Date.now() - causedAt };
    for (const d of j.delays) {
      figures[`retry${d.retry}ExpectedS`] = d.expectedMs / 1000;
      figures[`retry${d.retry}ObservedS`] = Math.round(d.observedMs / 100) / 10;
    }
    const status = failed ? 'failed' : Date.now() > bound ? 'incomplete' : 'passed';
    log(`retry watch ${status} after ${Math.round((Date.now() - causedAt) / 1000)} s; ${j.delays.map((d) => `retry ${d.retry}: expected ${d.expectedMs / 1000} s, observed ${(d.observedMs / 1000).toFixed(1)} s`).join('; ') || 'no retry seen'}`);
    return {
      part: 'chaos',
      name: `webhook retries at real time (retries 1-${retries} observed; later ones need a day)`,
      status,
      ...(status === 'incomplete' ? { skipReason: 'the watch reached its time bound before every watched retry was judged' } : {}),
      target: o.baseUrl,
      profile: profile.name,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      checks: j.checks,
      figures,
    };
  } finally {
    if (webhookId && webhookDeletable(profile)) await call(o, 'webhooks.delete', { params: { webhookId } }).catch(() => undefined);
    // The two lends rest at a rate no borrow crosses; they are withdrawn rather than left in the book.
    for (const id of [positionId, slowId]) if (id) await call(o, 'position.cancel', { params: { positionId: id } }).catch(() => undefined);
    await rx.close();
  }
}
