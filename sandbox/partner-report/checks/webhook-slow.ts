import { WEBHOOK_RESPONSE_DEADLINE_MS } from '../../../contract/index.ts';
import { groupBy, type DeliveryObservation, type PartnerCheck } from '../types.ts';

// Part 6, delivery rule 1 and part 8: the receiver answers within 5 seconds. A slower answer is
// a failed delivery to the sender, retried later, however the receiver ends up answering.

export const deliveryView = ({ partner: _p, ...d }: DeliveryObservation) => d;

const slow = (d: DeliveryObservation) => (d.latencyMs !== null && d.latencyMs > WEBHOOK_RESPONSE_DEADLINE_MS) || (d.status === null && /no answer within/.test(d.error ?? ''));

export const webhookSlow: PartnerCheck = {
  name: 'webhook-slow',
  rule: 'part 6 rule 1: the receiver answers within 5 seconds',
  description: `webhook deliveries answered after ${WEBHOOK_RESPONSE_DEADLINE_MS} ms, or not at all in that time`,
  run({ deliveries }) {
    const late = deliveries.filter(slow);
    if (!late.length) return [];
    const byPartner = groupBy(late, (d) => d.partner);
    return [...byPartner].map(([partner, list]) => ({
      check: this.name,
      rule: this.rule,
      partner,
      expected: `an answer within ${WEBHOOK_RESPONSE_DEADLINE_MS} ms (acknowledge first, do the work after)`,
      received: `${list.length} delivery attempt(s) ${list.map((d) => (d.latencyMs === null ? 'unanswered' : `${d.latencyMs} ms`)).slice(0, 5).join(', ')}`,
      requests: [],
      deliveries: list.slice(0, 5).map(deliveryView),
    }));
  },
};
