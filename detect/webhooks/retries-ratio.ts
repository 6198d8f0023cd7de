import { WEBHOOK_RETRY_DELAYS_MS } from '../../contract/index.ts';
import { NO_CONTROLS } from '../controls.ts';
import { arrivalExchange, payloadOf, type Arrival, type Decide } from '../../receiver/recording.ts';
import { createRedactor } from '../../reports/redact.ts';
import { deliveriesOf, eventIdOf, newEvent, type Ctx } from './retries-events.ts';

// Retries without a test clock. Three events go to the second receiver: a is answered 500
// at once (its retry gap g is the first retry delay, a minute of the target's business
// time), c is answered 202 (retried about g later only when the sender counts 200 alone as
// success), b is held H then answered 500 (retried about g after it started: attempt-start,
// or g + H: attempt-end). The delays are read against g, so the target's time scale need
// not be known: a sandbox whose clock runs faster shows them in seconds, a target at real
// time in a minute and a half when the user allows that wait (--retry-wait). Each wait is
// bounded and says its bound. What follows the fifth retry needs the whole schedule (1 596 g)
// and the attempts control, so it is not read here.

/** How long a first retry is awaited unless told otherwise: a target whose minute takes longer is taken as real time. */
export const FIRST_RETRY_WAIT_MS = 3_000;
/** The shortest first retry delay told apart from the sender's polling jitter. */
const MIN_DELAY_MS = 200;
/** Below the sender's 5 s response deadline. */
const MAX_HOLD_MS = 3_000;

type Role = 'a' | 'b' | 'c';

export async function retriesByRatio(x: Ctx): Promise<void> {
  const { p, rx } = x;
  const waitMs = Math.max(p.opts.retryWaitMs ?? FIRST_RETRY_WAIT_MS, FIRST_RETRY_WAIT_MS);
  const ex = (d: Arrival) => arrivalExchange(d, rx.url, createRedactor(p.secrets));
  p.miss('webhooks.afterFinalRetry', `${NO_CONTROLS}; afterFinalRetry needs the whole schedule (over a day at real time) and the attempts control; at real time, chaos receive + chaos validate over a run of a day or more`);
  const both = (why: string) => ['webhooks.successStatuses', 'webhooks.retryDelayFrom'].forEach((o) => p.miss(o, why));

  // Each event's role is known by its user (or its position, if the data carries no user).
  const roles = new Map<string, Role>();
  let hold = MAX_HOLD_MS;
  const plans: Record<Role, (n: number) => ReturnType<Decide>> = {
    a: (n) => ({ status: n === 1 ? 500 : 200 }),
    b: (n) => (n === 1 ? { status: 500, afterMs: hold } : { status: 200 }),
    c: (n) => ({ status: n === 1 ? 202 : 200 }),
  };
  const answer: Decide = (d) => {
    const role = roleOf(d, roles);
    return role ? plans[role](deliveriesOf(rx, eventIdOf(d)).length) : { status: 200 };
  };
  const start = async (role: Role) => {
    roles.set(p.user(`retry-ratio-${role}`), role);
    const e = await newEvent(x, `ratio-${role}`, answer);
    const pid = (e.lend.json as { positionId?: unknown } | undefined)?.positionId;
    if (typeof pid === 'string') roles.set(pid, role);
    return e;
  };
  const retried = (eventId: string) => () => deliveriesOf(rx, eventId).length > 1;

  const a = await start('a');
  const c = await start('c');
  const fast = await rx.waitFor(retried(a.eventId), FIRST_RETRY_WAIT_MS);
  let b: Awaited<ReturnType<typeof start>> | undefined;
  if (!fast) {
    if (waitMs <= FIRST_RETRY_WAIT_MS) {
      return both(`${NO_CONTROLS}, and after a delivery answered 500 no retry came within ${FIRST_RETRY_WAIT_MS} ms: the target runs at real time (a retry a minute later); --retry-wait 120 waits for it (about 90 s), or chaos receive + chaos validate over a long run`);
    }
    // g is over FIRST_RETRY_WAIT_MS, so a hold of MAX_HOLD_MS ends before a start-based retry is due: b can go now, beside a and c.
    b = await start('b');
    if (!(await rx.waitFor(retried(a.eventId), waitMs - FIRST_RETRY_WAIT_MS))) {
      return both(`${NO_CONTROLS}, and after a delivery answered 500 no retry came within ${waitMs} ms (--retry-wait)`);
    }
  }
  const [a1, a2] = deliveriesOf(rx, a.eventId) as [Arrival, Arrival];
  const g = a2.at - a1.at;
  const scale = (WEBHOOK_RETRY_DELAYS_MS[0] / Math.max(g, 1)).toPrecision(2);

  // successStatuses: c's first delivery was answered 202.
  const bound = Math.ceil(1.5 * g) + 200;
  const again = await rx.waitFor(retried(c.eventId), Math.max(0, c.first.at + bound - Date.now()));
  p.set('webhooks.successStatuses', again ? '200' : '2xx', again ? 'high' : 'medium', [a1, a2, ...deliveriesOf(rx, c.eventId)].map(ex),
    again
      ? `a delivery answered 202 was sent again ${deliveriesOf(rx, c.eventId)[1]!.at - c.first.at} ms later (a 500 was retried after ${g} ms, about ${scale}× real time)`
      : `a delivery answered 202 was not sent again within ${bound} ms, 1.5 × the ${g} ms after which a 500 was retried (about ${scale}× real time)`);

  // retryDelayFrom: b's first delivery was held, then answered 500. A hold longer than the
  // delay would end after a start-based retry is due, and the retry would follow the answer
  // at once: holding g at most keeps start (about g) and end (g + hold) furthest apart.
  if (g < MIN_DELAY_MS) return p.miss('webhooks.retryDelayFrom', `the first retry delay took ${g} ms (about ${scale}× real time), too short against the sender's polling to tell its start from its end; below ${MIN_DELAY_MS} ms it is not judged`);
  if (!b) {
    hold = Math.min(MAX_HOLD_MS, g);
    b = await start('b');
  }
  const bBound = hold + 2 * g + 500;
  if (!(await rx.waitFor(retried(b.eventId), Math.max(0, b.first.at + bBound - Date.now())))) {
    return p.miss('webhooks.retryDelayFrom', `a delivery held ${hold} ms then answered 500 was not retried within ${bBound} ms`);
  }
  const [b1, b2] = deliveriesOf(rx, b.eventId) as [Arrival, Arrival];
  const gap = b2.at - b1.at;
  const fromEnd = gap > g + hold / 2;
  p.set('webhooks.retryDelayFrom', fromEnd ? 'attempt-end' : 'attempt-start', 'medium', [b1, b2].map(ex),
    `held ${hold} ms then answered 500, the attempt was retried ${gap} ms after it started: nearer ${fromEnd ? `${g + hold} (delay + hold)` : `${g} (the delay alone)`} than ${fromEnd ? g : g + hold} ms`);
}

function roleOf(d: Arrival, roles: Map<string, Role>): Role | undefined {
  const data = (payloadOf(d) as { data?: { userId?: unknown; positionId?: unknown } } | undefined)?.data;
  return roles.get(String(data?.userId)) ?? roles.get(String(data?.positionId));
}
