import type { Reply } from '../../conformance/http.ts';
import { tradeAsset } from '../market/assets.ts';
import { errorText, ok, type Probe } from '../probe.ts';
import { payloadOf, type Arrival, type RecordingReceiver } from '../../receiver/recording.ts';
import { probeAmount } from '../orders/probe-amount.ts';
import { probeRate } from '../orders/rate-bound.ts';

// The events both retry probes (test clock: retries.ts; time ratio: retries-ratio.ts) send
// and read: a lend nobody takes, and its deliveries by event id.

/** How long a new event's first delivery is waited for. */
export const FIRST_WAIT_MS = 5_000;

export interface Ctx { p: Probe; rx: RecordingReceiver; webhookId?: string }

/** A lend nobody takes (its position.created) with the receiver answering as told; waits for its first delivery. */
export async function newEvent(x: Ctx, tag: string, answer: RecordingReceiver['decide'], mayMiss = false): Promise<{ eventId: string; first: Arrival; lend: Reply }> {
  const { p, rx } = x;
  rx.decide = answer;
  const lend = await p.call('lend.create', { body: { userId: p.user(`retry-${tag}`), asset: tradeAsset(p), amount: probeAmount(p), rate: probeRate(p), maturity: p.fact<string[]>('maturities')?.[0] ?? '30d' } });
  if (!ok(lend)) throw new Error(`a lend for event ${tag} answered ${lend.status} ${errorText(lend).slice(0, 160)}`);
  const pid = (lend.json as { positionId?: string }).positionId;
  const mine = (d: Arrival) => (payloadOf(d) as { data?: { positionId?: unknown } } | undefined)?.data?.positionId === pid;
  await rx.waitFor((g) => g.some(mine), FIRST_WAIT_MS);
  const first = rx.got.find(mine);
  if (!first && !mayMiss) throw new Error(`the position.created of lend ${tag} did not arrive within ${FIRST_WAIT_MS} ms`);
  // Only afterFinal (mayMiss) reads a missing first delivery, and it checks for one.
  return { eventId: first ? eventIdOf(first) : '', first: first!, lend };
}

export const eventIdOf = (d: Arrival) => String((payloadOf(d) as { id?: unknown } | undefined)?.id ?? '');
export const deliveriesOf = (rx: RecordingReceiver, eventId: string) => rx.got.filter((d) => eventIdOf(d) === eventId);
