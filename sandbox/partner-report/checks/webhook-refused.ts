import { groupBy, type PartnerCheck } from '../types.ts';
import { deliveryView } from './webhook-slow.ts';

// Part 6: a correctly signed delivery is answered with 200. A refusal (4xx/5xx, a dropped
// connection) makes the sender retry on the 1 min … 24 h schedule, so an event the handler
// could not take arrives again hours later. Slow answers are webhook-slow's; the report's
// mis-signed probe is webhook-bad-signature's.

export const webhookRefused: PartnerCheck = {
  name: 'webhook-refused',
  rule: 'part 6 rule 1: the receiver answers a valid delivery with 200',
  description: 'correctly signed webhook deliveries the receiver did not acknowledge',
  run({ deliveries, isAck }) {
    const refused = deliveries.filter((d) => !d.probe && !isAck(d.status) && !/no answer within/.test(d.error ?? ''));
    if (!refused.length) return [];
    return [...groupBy(refused, (d) => d.partner)].map(([partner, list]) => ({
      check: this.name,
      rule: this.rule,
      partner,
      expected: 'status 200 for a delivery signed with the subscription secret',
      received: `${list.length} attempt(s) answered ${[...new Set(list.map((d) => (d.status === null ? (d.error ?? 'no answer') : String(d.status))))].join(', ')}`,
      requests: [],
      deliveries: list.slice(0, 5).map(deliveryView),
    }));
  },
};
