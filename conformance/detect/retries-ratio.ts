import { WEBHOOK_RETRY_DELAYS_MS } from '../../contract/index.ts';
import { NO_CONTROLS } from './controls.ts';
import { deliveryExchange, type Delivery } from './receiver.ts';
import { deliveriesOf, eventIdOf, newEvent, type Ctx } from './retries.ts';

// Retries without a test clock, from a target whose business time runs faster than real
// time (a sandbox at a time scale): the delays are read as ratios, so the scale need not be
// known. A delivery failed at once gives the first retry delay g (a minute of business
// time); a 202 is retried or not within the second delay (5 g); a first attempt held H
// before its 500 is retried about g after it started (attempt-start) or g + H (attempt-end).
// Each wait is bounded; a target at real time (no retry within FIRST_RETRY_WAIT_MS) leaves
// them undetected. What follows the fifth retry needs the whole schedule (1 596 g) and the
// attempts control, so it is not read here.

/** The longest wait for a first retry: a target whose minute takes longer is taken as real time. */
export const FIRST_RETRY_WAIT_MS = 3_000;
/** The shortest first retry delay told apart from the sender's polling jitter. */
const MIN_DELAY_MS = 200;
/** Below the sender's 5 s response deadline. */
const MAX_HOLD_MS = 3_000;

export async function retriesByRatio(x: Ctx): Promise<void> {
  const { p, rx } = x;
  const ex = (d: Delivery) => deliveryExchange(d, rx.url, p.secrets);
  const after = `${NO_CONTROLS}; afterFinalRetry needs the whole schedule (over a day at real time) and the attempts control; at real time, chaos receive + chaos validate over a run of a day or more`;
  p.miss('webhooks.afterFinalRetry', after);
  const real = (what: string) => `${NO_CONTROLS}, and ${what} no retry came within ${FIRST_RETRY_WAIT_MS} ms: the target runs at real time (a retry a minute later); chaos receive + chaos validate over a long run`;

  // g: the first retry delay of a delivery answered 500 at once; its retry is answered 202, the next 200.
  const answers = [500, 202, 200];
  const a = await newEvent(x, 'ratio-a', (d) => ({ status: answers[Math.min(deliveriesOf(rx, eventIdOf(d)).length, answers.length) - 1]! }));
  if (!(await rx.waitFor(() => deliveriesOf(rx, a.eventId).length > 1, FIRST_RETRY_WAIT_MS))) {
    for (const o of ['webhooks.successStatuses', 'webhooks.retryDelayFrom']) p.miss(o, real('after a delivery answered 500'));
    return;
  }
  const [a1, a2] = deliveriesOf(rx, a.eventId) as [Delivery, Delivery];
  const g = a2.receivedAt - a1.receivedAt;
  const scale = Math.round(WEBHOOK_RETRY_DELAYS_MS[0] / Math.max(g, 1));
  const bound = Math.ceil(1.5 * g * (WEBHOOK_RETRY_DELAYS_MS[1] / WEBHOOK_RETRY_DELAYS_MS[0])) + 200;
  const again = await rx.waitFor(() => deliveriesOf(rx, a.eventId).length > 2, bound);
  p.set('webhooks.successStatuses', again ? '200' : '2xx', again ? 'high' : 'medium', deliveriesOf(rx, a.eventId).map(ex),
    again
      ? `the retry answered 202 was sent again (first retry delay ${g} ms, about ${scale}× real time)`
      : `the retry answered 202 was not sent again within ${bound} ms, 1.5 × the second retry delay at the ${g} ms the first one took (about ${scale}× real time)`);

  // retryDelayFrom: the first attempt held H then 500; its retry answered 200.
  // A hold longer than the delay would end after a start-based retry is due, and the retry
  // would follow the answer at once: holding exactly g (at most MAX_HOLD_MS) keeps start
  // (about g) and end (g + hold) furthest apart.
  if (g < MIN_DELAY_MS) return p.miss('webhooks.retryDelayFrom', `the first retry delay took ${g} ms (about ${scale}× real time), too short against the sender's polling to tell its start from its end; below ${MIN_DELAY_MS} ms it is not judged`);
  const hold = Math.min(MAX_HOLD_MS, g);
  const b = await newEvent(x, 'ratio-b', (d) => (deliveriesOf(rx, eventIdOf(d)).length === 1 ? { status: 500, holdMs: hold } : { status: 200 }));
  if (!(await rx.waitFor(() => deliveriesOf(rx, b.eventId).length > 1, hold + 3 * g + 500))) {
    return p.miss('webhooks.retryDelayFrom', `a delivery held ${hold} ms then answered 500 was not retried within ${hold + 3 * g + 500} ms`);
  }
  const [b1, b2] = deliveriesOf(rx, b.eventId) as [Delivery, Delivery];
  const gap = b2.receivedAt - b1.receivedAt;
  const fromEnd = gap > g + hold / 2;
  p.set('webhooks.retryDelayFrom', fromEnd ? 'attempt-end' : 'attempt-start', 'medium', [b1, b2].map(ex),
    `held ${hold} ms then answered 500, the attempt was retried ${gap} ms after it started: nearer ${fromEnd ? `${g + hold} (delay + hold)` : `${g} (the delay alone)`} than ${fromEnd ? g : g + hold} ms`);
}
