import { evidence, type Exchange, type Finding, type PartnerCheck } from '../types.ts';

// The interface has no idempotency key (part 4): an order sent again because the first seemed
// to time out is a second order, and the user's funds are committed twice. The same body for
// the same partner within a short window, both accepted, is that retry.

/** Two identical accepted orders this close together are a retry, not two decisions. */
export const DUPLICATE_WINDOW_MS = 10_000;

export const duplicateOrder: PartnerCheck = {
  name: 'duplicate-order',
  rule: 'part 4: POST /lend and /borrow create an order each time (no idempotency key)',
  description: `the same order body accepted twice for the same partner within ${DUPLICATE_WINDOW_MS / 1000} s (a blind retry after a timeout)`,
  run({ exchanges }) {
    const findings: Finding[] = [];
    const last = new Map<string, Exchange>();
    for (const e of exchanges) {
      if (e.orderBody === undefined || e.status >= 300) continue;
      const k = `${e.partner ?? ''} ${e.endpoint} ${e.orderBody}`;
      const before = last.get(k);
      last.set(k, e);
      if (!before || e.at - before.at > DUPLICATE_WINDOW_MS) continue;
      findings.push({
        check: this.name,
        rule: this.rule,
        ...(e.partner ? { partner: e.partner } : {}),
        expected: 'one order per decision: after a timeout, look the order up (GET /users/{userId}/positions) before placing it again',
        received: `the same ${e.method} ${e.target} body placed twice ${e.at - before.at} ms apart: positions ${before.positionId ?? '?'} and ${e.positionId ?? '?'}`,
        requests: [evidence(before, `first: ${before.orderBody}`), evidence(e, `again: ${before.ms >= 1000 ? `the first took ${Math.round(before.ms)} ms` : 'the same body'}`)],
      });
    }
    return findings;
  },
};
