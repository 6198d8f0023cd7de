import { evidence, firstOf, groupBy, isJsonType, type PartnerCheck } from '../types.ts';

// Part 4: "Requests with bodies are JSON and carry Content-Type: application/json." fetch sends
// a string body as text/plain unless told otherwise, so this is the commonest slip; a real
// service may refuse such a request, or read it as form data.


export const missingContentType: PartnerCheck = {
  name: 'missing-content-type',
  rule: 'part 4: requests with bodies carry Content-Type: application/json',
  description: 'a request with a body and no Content-Type: application/json',
  run({ exchanges }) {
    const bad = exchanges.filter((e) => e.hasBody && !isJsonType(e.contentType));
    return [...groupBy(bad, (e) => e.partner ?? '')].map(([partner, list]) => ({
      check: this.name,
      rule: this.rule,
      ...(partner ? { partner } : {}),
      expected: 'Content-Type: application/json on every request with a body',
      received: `${list.length} request(s) with a body and ${[...new Set(list.map((e) => (e.contentType === undefined ? 'no Content-Type' : `Content-Type: ${e.contentType}`)))].join(' / ')}`,
      requests: firstOf(list.map((e) => evidence(e, e.contentType === undefined ? 'no Content-Type' : `Content-Type: ${e.contentType}`))),
    }));
  },
};
