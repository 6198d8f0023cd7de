import { evidence, firstOf, groupBy, isJsonType, type PartnerCheck } from '../types.ts';

// Part 7: invalid_request (400) means the request itself was malformed: a missing field, a
// number where a decimal string belongs, a limit over 100. Other refusals (insufficient funds,
// an unknown position, a 429) are the service's answers to well-formed requests and are left
// to the partner's own tests; a malformed one is the partner's code building a request wrong.
// A body sent without its JSON Content-Type is missing-content-type's, not named twice.


export const malformedRequest: PartnerCheck = {
  name: 'malformed-request',
  rule: 'part 7: invalid_request, a malformed request',
  description: 'requests refused 400 invalid_request (the message names the field)',
  run({ exchanges }) {
    const bad = exchanges.filter((e) => e.status === 400 && e.errorCode === 'invalid_request' && !(e.hasBody && !isJsonType(e.contentType)));
    return [...groupBy(bad, (e) => e.partner ?? '')].map(([partner, list]) => ({
      check: this.name,
      rule: this.rule,
      ...(partner ? { partner } : {}),
      expected: 'requests built as part 2 and 4 give them (required fields, decimal strings, bounds)',
      received: `${list.length} request(s) refused invalid_request: ${[...new Set(list.map((e) => e.errorMessage ?? '?'))].slice(0, 3).join(' | ')}`,
      requests: firstOf(list.map((e) => evidence(e, e.errorMessage))),
    }));
  },
};
