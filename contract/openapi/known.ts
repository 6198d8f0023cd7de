import { z } from 'zod';
import { EVENT_TYPES, SIGNATURE_HEADER } from '../constants.ts';
import { endpointSuccess, publicEnvelopeOf, successSchema, type Endpoint } from '../endpoints.ts';
import type { Profile } from '../profile.ts';
import { eventEnvelope, positionMatchedData } from '../schemas.ts';
import { assertable, recordedFields, SPEC_NAMED_FIELDS, specShowsBody } from '../assertable.ts';

// What the document says about a success body: what the spec states, plus what the profile
// records, and nothing of the reference sandbox's own choices (contract/shapes.ts). A body
// the spec leaves "not shown" is an open object unless the profile records something of it:
// the id field it names (`ids.*`) or the fields `profile detect` saw (`responses`). Schemathesis
// and Prism trust a document, so a field it requires that a correct service need not send is
// a false failure (issue 28).

type Json = Record<string, unknown>;

export const toSchema = (t: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(t, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
};

export { idFieldOf, recordedFields, specShowsBody } from '../assertable.ts';

/** The fields part 2 names, typed where present: one component every body the spec does not show refers to. */
export const SPEC_NAMED_REF = '#/components/schemas/SpecNamedFields';
export function specNamedFieldsSchema(): Json {
  const { type: _any, required: _none, ...open } = toSchema(z.looseObject(Object.fromEntries(Object.entries(SPEC_NAMED_FIELDS).map(([k, v]) => [k, v.optional()]))), 'output');
  return { description: 'Fields part 2 names, wherever they appear at the top of a body the spec does not show: any JSON; where an object, these hold their part 2 types', ...open, additionalProperties: true };
}

/**
 * The payload of a body the spec does not show, as contract/assertable.ts judges it: no type
 * (any JSON; fields apply when it is an object), the fields part 2 names (SPEC_NAMED_REF) and
 * the fields the profile records typed where present, the named id field required.
 */
function notShownPayload(p: Profile, e: Endpoint): Json {
  const a = assertable(p, e);
  const own = new Set([...Object.keys(recordedFields(p, e) ?? {}), ...a.required]);
  const props = (toSchema(a.fields!, 'output').properties ?? {}) as Record<string, Json>;
  const properties = Object.fromEntries(Object.entries(props).filter(([k]) => own.has(k)));
  return {
    ...(a.required.length ? { type: 'object' } : {}),
    description: `Shape not shown by the spec: any JSON; where an object, the fields part 2 names hold its types${own.size ? ', and the fields the profile records (or names) theirs' : ''}`,
    allOf: [{ $ref: SPEC_NAMED_REF }],
    ...(own.size ? { properties } : {}),
    ...(a.required.length ? { required: a.required } : {}),
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

/** A 204 carries no body: the document then gives the status without content. */
export const hasBody = (p: Profile, e: Endpoint) => endpointSuccess(p, e) !== 204;

/** The signature header under the profile's scheme (spec part 6: the header name; the form: the profile). */
export function signatureHeader(p: Profile): Json {
  const pattern = p.signature.scheme === 'hmac-sha256-hex' ? '^[0-9a-f]{64}$' : '^t=[0-9]+(,v1=[0-9a-f]{64})+$';
  return {
    name: SIGNATURE_HEADER,
    in: 'header',
    required: true,
    description: `Signature over the raw body with the subscription secret (profile signature.scheme: ${p.signature.scheme})`,
    schema: { type: 'string', pattern },
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
