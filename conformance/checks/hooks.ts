import { controls, eventEnvelope, EVENT_TYPES, positionMatchedData, SIGNATURE_HEADER, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_SECRET_PREFIX, webhookDeletable, type Profile } from '../../contract/index.ts';
import type { SignatureScheme } from '../../signing/signature.ts';
import { verifyDelivery } from '../hooks/verify-delivery.ts';
import { CheckSkip, expectShape, expectStatus, fail, show, withDetail, type Check, type CheckContext, type FailureDetail, pass } from '../check.ts';
import { RECEIVER_VAR } from '../../kernel/repro-vars.ts';
import { findId } from '../body-id.ts';
import { sharedLend } from './fixtures.ts';
import { matchedPair, webhookSecret } from './endpoints.ts';
import { selfCommand } from '../../kernel/self-command.ts';
import { arrivalExchange, startRecordingReceiver, type Arrival, type RecordingReceiver } from '../../receiver/recording.ts';
import { eventOf } from '../hooks/deliveries.ts';
import { startedScenario, SCENARIO_BOUND_MS, type Scenario } from '../hooks/scenario.ts';
import type { Outcome } from '../../kernel/check-kernel.ts';

// Part 6 from the sender's side: a local receiver is subscribed, an event is triggered
// through the sandbox controls (or, without them, caused by crossing orders), and the delivery is checked (POST, envelope, data,
// signature over the raw body with the subscription secret). Retries are read from the
// attempts control while the test clock is advanced through the schedule.

/** lendcheck's one recording receiver (receiver/recording.ts), answering every delivery with `status` at once. */
async function receiver(status: number): Promise<RecordingReceiver> {
  return startRecordingReceiver({ path: '/lendcheck-hook', decide: () => status });
}

/**
 * A failed webhook check's reproduction: the check's own requests (its subscription names the
 * receiver, which a reader replaces with theirs) and what the receiver got, headers and body.
 */
function hookDetail(ctx: CheckContext, from: number, rx: RecordingReceiver, timeline?: () => string | undefined): () => FailureDetail {
  return () => {
    const t0 = rx.got[0]?.at ?? 0;
    const tl = timeline?.();
    return {
      exchanges: ctx.http.log.slice(from),
      vars: { [RECEIVER_VAR]: rx.url },
      deliveries: rx.got.slice(0, 10).map((d) => {
        const x = arrivalExchange(d, rx.url);
        return { atMs: d.at - t0, method: d.method, headers: x.requestHeaders, body: x.requestBody, status: d.status };
      }),
      ...(tl ? { timeline: tl } : {}),
    };
  };
}

async function waitFor(pred: () => boolean, ms: number): Promise<boolean> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

async function subscribe(ctx: CheckContext, url: string, events: string[]): Promise<{ id?: string; secret: string }> {
  const secret = webhookSecret(ctx);
  const r = await ctx.call('webhooks.create', { body: { url, events, secret } });
  if (r.status < 200 || r.status > 299) fail('POST /webhooks subscribes a loopback receiver', 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
  // The registration body is not shown by the spec: its id is found, or named by profile ids.webhook.
  return { id: findId(r.json, ctx.profile.ids.webhook)?.value, secret };
}

/** How long a delivery is waited for: "near real time" (part 6), bounded. */
export const DELIVERY_WAIT_MS = 10_000;

/** The checks that need a test clock, and where the same rule is checked at real time instead. */
// Commands named as the reader runs them where they are (kernel/self-command.ts).
export const NEEDS_CLOCK = {
  get retry() {
    return `the 24 h retry schedule needs a test clock (the target has no sandbox controls: GET /v1/sandbox/clock did not answer 200); at real time it is checked by \`${selfCommand()} chaos receive\` + \`chaos validate\` over a run of a day or more (retries 1 and 2 are watched at real time by the gate's chaos step or \`${selfCommand()} chaos retries\`, about 6 minutes)`;
  },
  get maturity() {
    return `maturity needs a test clock to reach it (the target has no sandbox controls: GET /v1/sandbox/clock did not answer 200); at real time, run \`${selfCommand()} chaos receive\` through a position's maturity and \`chaos validate\` the position.matured delivery`;
  },
};

async function unsubscribe(ctx: CheckContext, id: string | undefined): Promise<void> {
  if (id && webhookDeletable(ctx.profile)) await ctx.call('webhooks.delete', { params: { webhookId: id } });
}

/**
 * Judges one position.matched delivery: POST, x-service-signature verified over the raw body with
 * the subscription's secret under the profile's scheme, the envelope and its data naming one of
 * `ids`. `cite`: the pass names the delivery as its evidence (a scenario another check ran sent the requests).
 */
function judgeDelivery(ctx: CheckContext, d: Arrival, url: string, o: { secret: string; scheme: SignatureScheme | null; ids: string[]; cite?: boolean }): Outcome {
  const profile = ctx.profile;
  const dx = arrivalExchange(d, url);
  if (d.method !== 'POST') fail('deliveries are HTTP POSTs', 'POST', d.method, dx);
  const sig = d.headers[SIGNATURE_HEADER];
  if (typeof sig !== 'string' || !sig) fail('each delivery carries x-service-signature', 'the header', show(sig), dx);
  const v = verifyDelivery(ctx, { raw: d.raw, headers: d.headers, secret: o.secret }, o.scheme, dx);
  if (!v.ok) fail(`the signature verifies over the raw body with the subscription secret (profile signature.scheme=${profile.signature.scheme})`, 'a valid signature', `verification failed: ${v.reason}`, dx);
  let env: unknown;
  try {
    env = JSON.parse(d.raw.toString('utf8'));
  } catch {
    fail('the delivery body is JSON', 'a JSON envelope', show(d.raw.toString('utf8').slice(0, 200)), dx);
  }
  const e = eventEnvelope.safeParse(env);
  if (!e.success) fail('the event envelope is {id, type, timestamp, data}', 'the spec envelope', show(env), dx);
  const ev = e.data!;
  if (!EVENT_TYPES.includes(ev.type) || ev.type !== 'position.matched') fail('the event carries the triggered type', 'position.matched', show(ev.type), dx);
  const data = positionMatchedData.safeParse(ev.data);
  if (!data.success) fail('position.matched data holds positionId, userId, rate, amount, maturity', 'the spec fields', show(ev.data), dx);
  if (!o.ids.includes(data.data!.positionId)) fail('the event names the position', o.ids.join(' or '), show(data.data!.positionId), dx);
  ctx.profileChoice({ option: 'webhooks.matchedIncludesType', expected: String(profile.webhooks.matchedIncludesType), followed: ('type' in (ev.data as object)) === profile.webhooks.matchedIncludesType, received: String('type' in (ev.data as object)) });
  return pass(o.cite ? { exchange: dx } : {});
}

/**
 * Without controls, the delivery scenario (hooks/scenario.ts) that a check of this run already
 * ran subscribed partner A to every type with the run's secret and caused a match with the run's
 * pair: its deliveries are judged here, the same rules as on a subscription of this check's own
 * (issue 48: one fixture serves every check that can read it).
 */
async function fromScenario(ctx: CheckContext, s: Scenario, scheme: SignatureScheme | null): Promise<Outcome> {
  return withDetail(hookDetail(ctx, ctx.http.log.length, s.all), async () => {
    if (!s.secret.startsWith(WEBHOOK_SECRET_PREFIX)) fail('the signing secret has the whsec_ prefix', WEBHOOK_SECRET_PREFIX, s.secret.slice(0, 6));
    const ids = s.sides.map((x) => x.positionId);
    const lendId = s.sides.find((x) => x.side === 'lend')?.positionId ?? ids[0]!;
    const rx = s.all;
    if (!rx.got.some((d) => d.raw.includes('position.created') && d.raw.includes(lendId))) fail('position.created is delivered for an organic lend', `a POST within ${SCENARIO_BOUND_MS / 1000} s`, `${rx.got.length} deliveries, none for ${lendId}`);
    const find = (raw: string) => raw.includes('position.matched') && ids.some((id) => raw.includes(id));
    const d = rx.got.find((x) => find(x.raw.toString('utf8')));
    if (!d) fail('the event is delivered in near real time', `a POST carrying a position.matched event for ${ids.join(' or ')} within ${SCENARIO_BOUND_MS / 1000} s`, `${rx.got.length} deliveries, none matching`);
    return judgeDelivery(ctx, d!, rx.url, { secret: s.secret, scheme, ids, cite: true });
  });
}

export function hookChecks(profile: Profile): Check[] {
  return [
    {
      id: 'hooks.delivery',
      title: 'a position.matched event (triggered through the controls, or from crossing orders without them) is POSTed to the subscribed url as {id, type, timestamp, data} with a valid x-service-signature over the raw body',
      requirements: ['HOOK-post', 'HOOK-envelope', 'HOOK-event-types', 'HOOK-matched-data', 'HOOK-signature-header', 'HOOK-verify-raw', 'HOOK-subscription', 'HOOK-secret-prefix', 'EP-webhooks', 'CONV-timestamp-utc'],
      needs: ['write'],
      async run(ctx) {
        // An unknown scheme (part 6 leaves it open, null) is never a guess: the delivery verifies under a known variant, or the check skips (verify-delivery.ts).
        const scheme = profile.signature.scheme;
        // Its deliveries when the scenario ran (hooks.every-delivery and its kin, earlier in the
        // run); a subscription and orders of this check's own only when it did not, or got nothing.
        if (!ctx.hasControls) {
          const s = await startedScenario(ctx)?.catch(() => undefined);
          if (s && s.all.got.length) return fromScenario(ctx, s, scheme);
        }
        const rx = await receiver(200);
        const from = ctx.http.log.length;
        let sub: { id?: string; secret: string } | undefined;
        try {
          return await withDetail(hookDetail(ctx, from, rx), async () => {
            sub = await subscribe(ctx, rx.url, ['position.created', 'position.matched']);
            if (!sub.secret.startsWith(WEBHOOK_SECRET_PREFIX)) fail('the signing secret has the whsec_ prefix', WEBHOOK_SECRET_PREFIX, sub.secret.slice(0, 6));
            // With controls the event is triggered (fast path); without them it comes from a lend
            // and a crossing borrow of two users, as it would for any partner.
            let ids: string[];
            let find: (raw: string) => boolean;
            let what: string;
            if (ctx.hasControls) {
              const own = await sharedLend(ctx);
              const t = await ctx.call('sandbox.trigger', { body: { type: 'position.matched', positionId: own.positionId } });
              expectStatus(t, [200, 201, 202], 'POST /sandbox/trigger position.matched');
              const trig = expectShape(t, controls.triggerResponse, 'the trigger control answer');
              ids = [own.positionId];
              find = (raw) => raw.includes(trig.eventId);
              what = `event ${trig.eventId}`;
            } else {
              const pair = await matchedPair(ctx, 'hook-organic');
              ids = [pair.lendId, pair.borrowId];
              find = (raw) => raw.includes('position.matched') && ids.some((id) => raw.includes(id));
              what = `a position.matched event for ${ids.join(' or ')}`;
              const created = await waitFor(() => rx.got.some((d) => d.raw.includes('position.created') && d.raw.includes(pair.lendId)), DELIVERY_WAIT_MS);
              if (!created) fail('position.created is delivered for an organic lend', `a POST within ${DELIVERY_WAIT_MS / 1000} s`, `${rx.got.length} deliveries, none for ${pair.lendId}`);
            }
            const arrived = await waitFor(() => rx.got.some((d) => find(d.raw.toString('utf8'))), DELIVERY_WAIT_MS);
            if (!arrived) fail('the event is delivered in near real time', `a POST carrying ${what} within ${DELIVERY_WAIT_MS / 1000} s`, `${rx.got.length} deliveries, none matching`);
            const d = rx.got.find((x) => find(x.raw.toString('utf8')))!;
            return judgeDelivery(ctx, d, rx.url, { secret: sub.secret, scheme, ids });
          });
        } finally {
          await unsubscribe(ctx, sub?.id);
          await rx.close();
        }
      },
    },
    {
      id: 'hooks.retry-schedule',
      title: 'a delivery the receiver fails is retried five times, after 1 min, 5 min, 30 min, 2 h and 24 h of test-clock time',
      requirements: ['HOOK-retry-count', 'HOOK-retry-schedule'],
      needs: ['write'],
      phase: 'late',
      async run(ctx) {
        if (!ctx.hasControls) throw new CheckSkip(NEEDS_CLOCK.retry, 'target-lacks');
        const rx = await receiver(500);
        const from = ctx.http.log.length;
        let sub: { id?: string; secret: string } | undefined;
        let seen: { attempts: Array<Record<string, unknown>> } | undefined;
        // The attempts as the control last showed them, one line each: the timeline a reader compares with the schedule.
        const timeline = () => seen?.attempts.map((a, i) => `attempt ${i + 1}: ${Object.entries(a).filter(([k]) => k !== 'webhookId').map(([k, v]) => `${k} ${String(v)}`).join(', ')}`).join('\n');
        try {
          return await withDetail(hookDetail(ctx, from, rx, timeline), async () => {
            const clock = await ctx.call('sandbox.clock');
            const timeScale = expectShape(clock, controls.clockResponse, 'GET /sandbox/clock').timeScale;
            sub = await subscribe(ctx, rx.url, ['withdrawal.completed']);
            const userId = ctx.user('hook-retry');
            const t = await ctx.call('sandbox.trigger', { body: { type: 'withdrawal.completed', userId } });
            expectStatus(t, [200, 201, 202], 'POST /sandbox/trigger withdrawal.completed');
            const { eventId } = expectShape(t, controls.triggerResponse, 'the trigger control answer');
            // The receiver may also get other events of the partner (a withdrawal an earlier run
            // left pending completes now): this event's attempts carry its id, or a retry under
            // another id still names this check's own user.
            const idAt = (d: Arrival): string => eventOf(d)?.id ?? '(none)';
            const attemptsSeen = () => rx.got.filter((d) => idAt(d) === eventId || d.raw.includes(userId));
            const attemptsOf = async () => {
              const r = await ctx.call('sandbox.attempts', { params: { eventId } });
              expectStatus(r, 200, 'GET /sandbox/events/{eventId}/attempts');
              const a = expectShape(r, controls.attemptsResponse, 'the attempts control answer');
              // Only this check's subscription: the partner may have others (a dashboard one, a detection run's).
              const mine = sub?.id ? { ...a, attempts: a.attempts.filter((x) => x.webhookId === sub!.id) } : a;
              seen = mine;
              return { r, a: mine };
            };
            const sentCount = async (n: number) => {
              const t0 = Date.now();
              for (;;) {
                const x = await attemptsOf();
                if (x.a.attempts.filter((y) => y.sentAt).length >= n || Date.now() - t0 > 3_000) return x;
                await new Promise((r) => setTimeout(r, 25));
              }
            };
            let cur = await sentCount(1);
            for (let i = 0; i < WEBHOOK_RETRY_DELAYS_MS.length; i++) {
              const sent = cur.a.attempts.filter((y) => y.sentAt);
              const next = cur.a.attempts[i + 1];
              if (!next) fail(`a failed attempt ${i + 1} is followed by retry ${i + 1}`, `attempt ${i + 2} scheduled`, `${cur.a.attempts.length} attempts (${show(cur.a.attempts.map((x) => x.outcome))})`, cur.r.exchange);
              const gap = Date.parse(next.scheduledAt) - Date.parse(sent[i].sentAt!);
              const want = WEBHOOK_RETRY_DELAYS_MS[i];
              // The delay runs from the failure, which comes a round trip after sentAt; on a fast
              // test clock that round trip is worth timeScale times more business time. Allowed:
              // a second or 1 % of the delay, plus one real second at the clock's scale.
              const slack = Math.max(1_000, want * 0.01) + timeScale * 1_000;
              if (gap < want - 1_000 || gap > want + slack) fail(`retry ${i + 1} waits ${want / 60_000} min after attempt ${i + 1}`, `${want} ms (up to +${slack} ms)`, `${gap} ms`, cur.r.exchange);
              const adv = await ctx.call('sandbox.clock.advance', { body: { seconds: Math.ceil(want / 1000) + 1 } });
              expectStatus(adv, [200, 201], 'POST /sandbox/clock/advance');
              cur = await sentCount(i + 2);
            }
            // Under afterFinalRetry 'drop' the record goes once the last retry fails: the receiver's count is the evidence then.
            const sent = Math.max(cur.a.attempts.filter((y) => y.sentAt).length, attemptsSeen().length);
            if (sent !== 1 + WEBHOOK_RETRY_DELAYS_MS.length) fail('the failing delivery is tried once and retried five times', '6 attempts sent', `${sent}`, cur.r.exchange);
            await ctx.call('sandbox.clock.advance', { body: { seconds: 3 * 86_400 } });
            const end = await attemptsOf();
            const after = Math.max(end.a.attempts.filter((y) => y.sentAt).length, attemptsSeen().length);
            if (after > 1 + WEBHOOK_RETRY_DELAYS_MS.length) fail('nothing is sent after the fifth retry', '6 attempts', `${after}`, end.r.exchange);
            const want = profile.webhooks.afterFinalRetry;
            ctx.profileChoice({ option: 'webhooks.afterFinalRetry', expected: want, followed: want !== 'mark-failed' || end.a.state === 'failed', received: `state ${end.a.state}` }, end.r.exchange);
            const mine = attemptsSeen();
            if (mine.length < 6) fail('every attempt the control reports reached the receiver', '6 POSTs of the event received', `${mine.length} (of ${rx.got.length} deliveries in all)`);
            // Part 6, rule 2: receivers deduplicate by the event id, so every attempt carries the event's own id.
            const k = mine.findIndex((d) => idAt(d) !== eventId);
            if (k >= 0) fail('every attempt of an event carries its id (receivers deduplicate by it: part 6, rule 2)', `id ${eventId} in each of the ${mine.length} attempts`, `attempt ${k + 1}: id ${idAt(mine[k]!)}`, arrivalExchange(mine[k]!, rx.url));
            return pass();
          });
        } finally {
          await unsubscribe(ctx, sub?.id);
          await rx.close();
        }
      },
    },
  ];
}
