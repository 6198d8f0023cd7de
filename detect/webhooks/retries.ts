import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../contract/index.ts';
import { advance, controlsOf } from '../controls.ts';
import { errorText, ok, type Detector, type Probe } from '../probe.ts';
import { findId } from '../../conformance/body-id.ts';
import { arrivalExchange, startRecordingReceiver, type Arrival } from '../../receiver/recording.ts';
import { createRedactor } from '../../reports/redact.ts';
import { retriesByRatio } from './retries-ratio.ts';
import { deliveriesOf, eventIdOf, FIRST_WAIT_MS, newEvent, type Ctx } from './retries-events.ts';

// What the sender does with an answer that is not a plain 200, seen on the test clock: a
// second receiver is subscribed to position.created, and each probe places a lend nobody
// takes and answers its deliveries as chosen.
// - successStatuses: the first delivery is answered 202; is it retried a minute later?
// - retryDelayFrom: the first delivery is held HOLD_MS, then answered 500; the clock is
//   advanced to a point past (attempt start + 1 min) but before (attempt end + 1 min).
// - afterFinalRetry: that delivery fails through every retry; then its attempts (gone:
//   drop) and whether a new event still reaches the receiver (not: disable-subscription).
// Without controls, retries-ratio.ts reads the first two from a target whose business time
// runs faster than real time; at real time the first retry comes a minute later.

/** How long the receiver holds the answer that separates attempt start from attempt end. */
const HOLD_MS = 3_000;
/** How long a delivery that is due is waited for (the sender polls its queue). */
export const DUE_WAIT_MS = 1_200;

const OPTIONS = ['webhooks.successStatuses', 'webhooks.retryDelayFrom', 'webhooks.afterFinalRetry'];

export const retriesDetector: Detector = {
  name: 'webhook retries (test clock)',
  options: OPTIONS,
  async run(p) {
    const c = await controlsOf(p);
    if (c && c.timeScale > 1.5) return OPTIONS.forEach((o) => p.miss(o, `the test clock runs ${c.timeScale}× real time, and the ${HOLD_MS} ms hold this probe relies on would span ${(HOLD_MS * c.timeScale) / 1000} s of it`));
    const x = await subscribe(p);
    if (!c) return retriesByRatio(x);
    const { rx } = x;
    const ex = (d: Arrival) => arrivalExchange(d, rx.url, createRedactor(p.secrets));

    // successStatuses: a 202 at once.
    const a = await newEvent(x, 'a', () => ({ status: 202 }));
    await advance(p, WEBHOOK_RETRY_DELAYS_MS[0] / 1000 + 2);
    const again = await rx.waitFor(() => deliveriesOf(rx, a.eventId).length > 1, DUE_WAIT_MS);
    p.set('webhooks.successStatuses', again ? '200' : '2xx', again ? 'high' : 'medium', [a.first, ...deliveriesOf(rx, a.eventId).slice(1)].map(ex),
      again ? 'a delivery answered 202 was sent again after the 1-minute retry delay' : `a delivery answered 202 was not sent again within ${DUE_WAIT_MS} ms of the clock passing its retry time`);

    // retryDelayFrom: held HOLD_MS, then 500; every later attempt 500 at once.
    const b = await newEvent(x, 'b', (d) => ({ status: 500, afterMs: deliveriesOf(rx, eventIdOf(d)).length === 1 ? HOLD_MS : 0 }));
    await rx.waitFor(() => b.first.answeredAt !== undefined, HOLD_MS + 1_000);
    // Now ≈ start + HOLD: one second past start + delay, HOLD − 1 s before end + delay.
    await advance(p, (WEBHOOK_RETRY_DELAYS_MS[0] - HOLD_MS) / 1000 + 1);
    const early = await rx.waitFor(() => deliveriesOf(rx, b.eventId).length > 1, DUE_WAIT_MS);
    if (!early) await advance(p, HOLD_MS / 1000 + 1);
    const retried = early || (await rx.waitFor(() => deliveriesOf(rx, b.eventId).length > 1, DUE_WAIT_MS));
    if (retried) {
      p.set('webhooks.retryDelayFrom', early ? 'attempt-start' : 'attempt-end', 'high', [b.first, deliveriesOf(rx, b.eventId)[1]!].map(ex),
        `an attempt held ${HOLD_MS} ms then answered 500 was retried ${early ? 'before' : 'only after'} the clock passed its end + 1 minute`);
    } else return OPTIONS.slice(1).forEach((o) => p.miss(o, `a delivery answered 500 was not retried within ${DUE_WAIT_MS} ms of the clock passing its end + 1 minute`));

    // afterFinalRetry: through the remaining retries.
    for (let i = 1; i < WEBHOOK_RETRY_DELAYS_MS.length; i++) {
      await rx.waitFor((g) => g.filter((d) => eventIdOf(d) === b.eventId && d.answeredAt !== undefined).length > i, DUE_WAIT_MS);
      await advance(p, WEBHOOK_RETRY_DELAYS_MS[i]! / 1000 + 1);
      if (!(await rx.waitFor(() => deliveriesOf(rx, b.eventId).length > i + 1, DUE_WAIT_MS))) {
        return p.miss('webhooks.afterFinalRetry', `retry ${i + 1} did not come within ${DUE_WAIT_MS} ms of the clock passing its time`);
      }
    }
    await afterFinal(x, b.eventId, ex);
  },
};

/** A second receiver, subscribed to position.created (with the secret when one is required). */
async function subscribe(p: Probe): Promise<Ctx> {
  const rx = await startRecordingReceiver({ path: '/lendcheck-detect', host: '127.0.0.1', advertise: p.opts.receiverHost });
  p.facts.set('retryReceiver', rx);
  const secret = p.fact<{ secret?: string }>('subscription')?.secret;
  const reg = await p.call('webhooks.create', { body: { url: rx.url, events: ['position.created'], ...(secret && p.found.get('webhooks.secretRequired')?.value === true ? { secret } : {}) } });
  if (!ok(reg)) throw new Error(`subscribing a second receiver answered ${reg.status} ${errorText(reg).slice(0, 160)}`);
  return { p, rx, webhookId: findId(reg.json, p.fact<{ idField?: string }>('subscription')?.idField)?.value };
}

async function afterFinal(x: Ctx, eventId: string, ex: (d: Arrival) => ReturnType<typeof arrivalExchange>): Promise<void> {
  const { p, rx } = x;
  await rx.waitFor((g) => g.filter((d) => eventIdOf(d) === eventId && d.answeredAt !== undefined).length > WEBHOOK_RETRY_DELAYS_MS.length, DUE_WAIT_MS);
  await sleep(200); // the sender records the last failure after our answer
  const at = await p.call('sandbox.attempts', { params: { eventId } });
  const ours = ((at.json as { attempts?: Array<{ webhookId?: string; outcome?: string }> } | undefined)?.attempts ?? []).filter((t) => !x.webhookId || t.webhookId === x.webhookId);
  const last = deliveriesOf(rx, eventId).map(ex).at(-1);
  // A disabled subscription gets no new event (and its attempts may leave the control's view), so that is asked first.
  const c = await newEvent(x, 'c', () => ({ status: 200 }), true);
  if (!(c.first as Arrival | undefined)) {
    return p.set('webhooks.afterFinalRetry', 'disable-subscription', 'medium', [last, c.lend], `after the 5th retry failed, a new event did not reach the receiver within ${FIRST_WAIT_MS} ms`);
  }
  if (ok(at) && ours.length === 0) return p.set('webhooks.afterFinalRetry', 'drop', 'high', [last, at, ex(c.first)], 'after the 5th retry failed, the event\'s attempts for this subscription are gone, and new events still arrive');
  if (ok(at) && ours.some((t) => t.outcome === 'failed')) return p.set('webhooks.afterFinalRetry', 'mark-failed', 'high', [last, at, ex(c.first)], 'after the 5th retry failed, the attempts show failed, and new events still arrive');
  p.miss('webhooks.afterFinalRetry', `the attempts control answered ${at.status} ${JSON.stringify(at.json ?? '').slice(0, 160)}`);
}
