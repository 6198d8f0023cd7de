import type { Profile } from '../profile.ts';

// What the profile knows about requests that a body schema says beyond its fields: the
// unknown-field policy (profile requests.unknownFields). Under `reject` every object of a
// request body is closed (additionalProperties: false), so a consumer generating "valid"
// requests (Schemathesis' positive phase) never adds a field the target refuses, and its
// negative phase may add one and expect the refusal. Under `ignore` the body stays open:
// extra fields are valid and the target takes them.

type Json = Record<string, unknown>;

/** Closes every object schema that lists properties, down through properties, items and allOf/anyOf. */
function close(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(close);
  if (!s || typeof s !== 'object') return s;
  const o = { ...(s as Json) };
  if (o.properties && typeof o.properties === 'object') {
    o.properties = Object.fromEntries(Object.entries(o.properties as Json).map(([k, v]) => [k, close(v)]));
    if (o.additionalProperties === undefined && o.type === 'object') o.additionalProperties = false;
  }
  for (const k of ['items', 'anyOf', 'oneOf'] as const) if (o[k] !== undefined) o[k] = close(o[k]);
  return o;
}

/** A request body schema under the profile's unknown-field policy. */
export function requestBody(p: Profile, body: Json): Json {
  if (p.requests.unknownFields === 'reject') {
    const closed = close(body) as Json;
    return { ...closed, description: [body.description, 'Fields not listed here are refused (400 invalid_request naming the field): profile requests.unknownFields reject.'].filter(Boolean).join(' ') };
  }
  return { ...body, description: [body.description, 'Fields not listed here are ignored: profile requests.unknownFields ignore.'].filter(Boolean).join(' ') };
}
