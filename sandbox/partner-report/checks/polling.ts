import { evidence, firstOf, type Exchange, type Finding, type PartnerCheck } from '../types.ts';

// Part 6: events are delivered "in near real time, as a replacement for polling". Reading the
// same position (or the same user's list) again and again while its status stays the same is
// waiting for a change that position.matched / position.matured would announce. A few reads
// are normal; a run of POLL_RUN reads with nothing changed, each soon after the last, is a loop.

export const POLL_RUN = 5;
/** Reads further apart than this are separate looks, not a loop. */
export const POLL_GAP_MS = 30_000;

const EVENTS_FOR = 'position.matched, position.matured, position.rolled';

export const polling: PartnerCheck = {
  name: 'polling',
  rule: 'part 6: events replace polling',
  description: `${POLL_RUN}+ reads of the same position or list in a row, ${POLL_GAP_MS / 1000} s apart at most, its status unchanged`,
  run({ exchanges }) {
    const findings: Finding[] = [];
    const runs = new Map<string, Exchange[]>();
    const subscribed = new Map<string, Set<string>>();
    const flush = (k: string) => {
      const run = runs.get(k);
      runs.delete(k);
      if (!run || run.length < POLL_RUN) return;
      const first = run[0];
      const events = [...(subscribed.get(first.partner ?? '') ?? [])];
      findings.push({
        check: this.name,
        rule: this.rule,
        ...(first.partner ? { partner: first.partner } : {}),
        expected: events.length
          ? `the subscribed event (${events.join(', ')}) to learn of the change, not a read loop`
          : `a webhook subscription (POST /webhooks: ${EVENTS_FOR}) to learn of the change, not a read loop`,
        received: `${first.method} ${first.target} read ${run.length} times in ${run[run.length - 1].at - first.at} ms, status ${first.seenStatus} each time`,
        requests: firstOf(run.map((e) => evidence(e, `status ${e.seenStatus}`)), 3),
      });
    };
    for (const e of exchanges) {
      if (e.subscription && e.partner) subscribed.set(e.partner, new Set([...(subscribed.get(e.partner) ?? []), ...e.subscription.events]));
      if (e.seenStatus === undefined) continue;
      const k = `${e.partner ?? ''} ${e.target}`;
      const run = runs.get(k);
      const prev = run?.[run.length - 1];
      if (prev && prev.seenStatus === e.seenStatus && e.at - prev.at <= POLL_GAP_MS) run!.push(e);
      else {
        flush(k);
        runs.set(k, [e]);
      }
    }
    for (const k of [...runs.keys()]) flush(k);
    return findings;
  },
};
