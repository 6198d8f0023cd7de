import type { PartnerCheck } from '../types.ts';
import { deliveryView } from './webhook-slow.ts';

// Part 6: "The receiver verifies the signature over the raw request body with the subscription
// secret before processing, and answers 401 when invalid." The report's probe (probe.ts) is a
// well-formed delivery signed with a wrong secret; anything but 401 is a finding, and a 2xx
// above all: that receiver would act on a forged event.

export const webhookBadSignature: PartnerCheck = {
  name: 'webhook-bad-signature',
  rule: 'part 6: an invalid signature is answered 401, before processing',
  description: 'the mis-signed probe delivery answered with anything but 401',
  run({ deliveries }) {
    // Only an answer can be judged: a receiver gone by the time of the probe says nothing.
    const wrong = deliveries.filter((d) => d.probe && d.status !== null && d.status !== 401);
    return wrong.map((d) => ({
      check: this.name,
      rule: this.rule,
      partner: d.partner,
      expected: `401 for a delivery whose ${'x-service-signature'} does not verify with the subscription secret`,
      received: `${d.status}${d.status! >= 200 && d.status! < 300 ? ': the forged event was accepted' : ''}`,
      requests: [],
      deliveries: [deliveryView(d)],
    }));
  },
};
