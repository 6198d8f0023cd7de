import type { AttemptRow } from '../store.ts';

// When an active schedule run can stop at once instead of waiting out the schedule: its
// failure is already certain. The receiver is the run's own, subscribed with a secret of its
// own, so a delivery that does not verify can only be the sender's fault; a run whose orders
// and triggers bring no delivery at all in 30 s has nothing to judge a schedule on.

/** No delivery this long after the run caused its events: none is coming in "near real time" (part 6). */
export const NO_DELIVERY_MS = 30_000;
/** After the first bad signature: a short look so the reason can say whether it is every delivery. */
const MORE_LOOK_MS = 2_000;

/** The reason the run has certainly failed, or undefined while it may still pass. */
export function certainFailure(rows: readonly AttemptRow[], causedAt: number, now: number, scheme = 'the default'): string | undefined {
  if (!rows.length) return now - causedAt > NO_DELIVERY_MS ? `no delivery arrived within ${NO_DELIVERY_MS / 1000} s of the run's orders and triggers: the schedule cannot be observed` : undefined;
  if (rows.some((r) => r.sigOk)) return undefined;
  const first = rows[0]!;
  if (rows.length < 3 && now - first.arrivalMs < MORE_LOOK_MS) return undefined;
  return `every delivery so far (${rows.length}, the first event ${first.eventId ?? '(no id)'} ${first.eventType ?? ''}) fails signature verification over its raw body (profile signature.scheme=${scheme}): ${first.sigReason ?? 'mismatch'}; no retry of an unverifiable delivery can be judged`;
}
