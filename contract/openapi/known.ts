import { z } from 'zod';
import { EVENT_TYPES, SIGNATURE_HEADER } from '../constants.ts';
import { endpointSuccess, publicEnvelopeOf, successSchema, type Endpoint } from '../endpoints.ts';
import type { Profile } from '../profile.ts';
import { eventEnvelope, positionMatchedData } from '../schemas.ts';
import { assertable, recordedFields, specShowsBody } from '../assertable.ts';
import { signaturePattern } from '../signature-schemes.ts';

// What the document says about a success body: what the spec states, plus the id field the
// profile names (`ids.*`), and nothing of the reference sandbox's own choices
// (contract/shapes.ts). A body the spec leaves "not shown" is open JSON but for that id. Schemathesis
// and Prism trust a document, so a field it requires that a correct service need not send is
// a false failure (issue 28).

type Json = Record<string, unknown>;

export const toSchema = (t: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(t, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
};

export { idFieldOf, recordedFields, specShowsBody } from '../assertable.ts';

/**
 * The payload of a body the spec does not show, as contract/assertable.ts judges it: any JSON,
 * and the id field the profile names (required, a non-empty string: links read it). Nothing
 * else is promised (issue 47): part 2's field types bind only the resources part 2 gives them
 * to, and the types `profile detect` saw once are advice, so a correct service whose field of
 * the same name holds null or another type is no failure of the document's either. The fields
 * the profile recorded are said in the description.
 */
function notShownPayload(p: Profile, e: Endpoint): Json {
  const a = assertable(p, e);
  const seen = Object.entries(recordedFields(p, e) ?? {}).filter(([k]) => !a.required.includes(k));
  return {
    ...(a.required.length ? { type: 'object' } : {}),
    description: `Shape not shown by the spec: any JSON; part 2's field types bind only the resources part 2 gives them to, so none is promised here${a.required.length ? `; the id field the profile names is required` : ''}${seen.length ? `. Seen by profile detect (advice, not promised): ${seen.map(([k, t]) => `${k} (${t})`).join(', ')}` : ''}`,
    ...(a.required.length ? { properties: Object.fromEntries(a.required.map((k) => [k, { type: 'string', minLength: 1 }])), required: a.required } : {}),
    additionalProperties: true,
  };
}

/** The JSON Schema of an endpoint's success body in the exported document, envelope included. */
export function documentedSuccess(p: Profile, e: Endpoint): Json {
  // The spec's own bodies, and lendcheck's sandbox controls (lendcheck defines those), as the contract says.
  if (specShowsBody(e)) {
    const schema = toSchema(successSchema(p, e), 'output');
    if (e.id === 'positions.list') {
      // The last page's nextCursor (part 2 does not show it): absent, or null, as the profile says.
      // Part 2 types it only "string", so no minLength: an empty last-page cursor is legal.
      const cursor = { type: 'string' };
      (schema.properties as Record<string, Json>).nextCursor = p.pagination.lastPageCursor === 'null'
        ? { anyOf: [cursor, { type: 'null' }], description: 'null on the last page (profile pagination.lastPageCursor)' }
        : { ...cursor, description: 'absent on the last page (profile pagination.lastPageCursor)' };
    }
    return schema;
  }
  const payload = notShownPayload(p, e);
  if (e.access === 'public' && publicEnvelopeOf(p, e) === 'data') {
    return {
      type: 'object',
      description: 'The {data, timestamp} wrapper part 4 states, around a payload the spec does not show',
      properties: { data: payload, timestamp: toSchema(z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/), 'output') },
      required: ['data', 'timestamp'],
      additionalProperties: true,
    };
  }
  return payload;
}

/** A 204 or 205 carries no body: the document then gives the status without content. */
export const hasBody = (p: Profile, e: Endpoint) => ![204, 205].includes(endpointSuccess(p, e));

/** The signature header under the profile's scheme (spec part 6: the header name; the form: the profile). */
export function signatureHeader(p: Profile): Json {
  // An unknown scheme (null) promises no form: the header is a string.
  const pattern = signaturePattern(p.signature.scheme);
  return {
    name: SIGNATURE_HEADER,
    in: 'header',
    required: true,
    description: `Signature over the raw body with the subscription secret (profile signature.scheme: ${p.signature.scheme ?? 'unknown'})`,
    schema: { type: 'string', ...(pattern ? { pattern } : {}) },
  };
}

/** OpenAPI 3.1 `webhooks`: each event type the profile emits, as the partner's receiver gets it. */
export function webhooksSection(p: Profile): Json {
  const envelope = toSchema(eventEnvelope, 'output');
  const out: Json = {};
  for (const type of EVENT_TYPES) {
    if (!p.events.emitted.includes(type)) continue;
    let data: Json = { type: 'object', description: 'Data not shown by the spec: an open object', additionalProperties: true };
    if (type === 'position.matched') {
      data = toSchema(positionMatchedData, 'output');
      // "one form also holds type": the profile says which form this target sends.
      if (p.webhooks.matchedIncludesType) data = { ...data, required: [...((data.required as string[]) ?? []), 'type'] };
    }
    const props = envelope.properties as Record<string, Json>;
    out[type] = {
      post: {
        summary: `${type} delivery`,
        parameters: [signatureHeader(p)],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { ...envelope, properties: { ...props, type: { type: 'string', const: type }, data } } } },
        },
        responses: { '200': { description: 'Received: the receiver answers 200 within 5 seconds (part 6)' } },
      },
    };
  }
  return out;
}
