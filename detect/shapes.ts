import { endpointKey, endpoints, publicEnvelopeOf, type Profile } from '../contract/index.ts';
import * as results from '../kernel/results.ts';
import { specShowsBody } from '../contract/assertable.ts';
import type { JSON_FIELD_TYPES } from '../contract/profile.ts';
import type { Reply } from '../conformance/http.ts';

// The bodies the spec leaves "not shown", as the target sent them during detection: for
// each such endpoint the detectors happened to call with a success (the analytics series, the
// vaults, the webhook list and registration, the borrow, repay, cancel, patch and withdraw
// answers), the top-level fields of every success body and their JSON types (a field seen with
// two types: null, nothing said), recorded as the profile option
// `responses.<METHOD path>` (the OpenAPI export names those fields in the body's description,
// untyped, and a type seen here is advice, never a failure: one answer shows what a field can
// be, not what it always is; issue 47). Costs no request.

type FieldType = (typeof JSON_FIELD_TYPES)[number];

export interface SeenReply {
  method: string;
  /** The path as called, relative to the base URL, query included. */
  path: string;
  /** Sent with a key (the shared order-book path answers by whether a key came). */
  keyed: boolean;
  reply: Reply;
  /** The endpoint the call named (Probe.call); absent for a path that is no endpoint of the table. */
  endpoint?: string;
}

export interface LearnedShape {
  key: string;
  fields: Record<string, FieldType>;
  evidence: results.Exchange;
}

function typeOf(v: unknown): FieldType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'object') return typeof v as FieldType;
  return 'string';
}


export function learnShapes(profile: Profile, seen: SeenReply[]): LearnedShape[] {
  const out: LearnedShape[] = [];
  for (const e of endpoints(profile)) {
    if (specShowsBody(e) || e.access === 'sandbox') continue;
    // The answers of calls made to this endpoint by name (Probe.call): never matched back from a URL.
    const hits = seen.filter((s) => s.endpoint === e.id && s.method === e.method && s.reply.status >= 200 && s.reply.status < 300 && s.reply.json && typeof s.reply.json === 'object' && !Array.isArray(s.reply.json));
    const fields: Record<string, FieldType> = {};
    let evidence: results.Exchange | undefined;
    for (const hit of hits) {
      let body = hit.reply.json as Record<string, unknown>;
      // A public body the profile wraps: the payload is what the spec does not show.
      if (e.access === 'public' && publicEnvelopeOf(profile, e) === 'data') {
        if (!body.data || typeof body.data !== 'object' || Array.isArray(body.data)) continue;
        body = body.data as Record<string, unknown>;
      }
      evidence ??= hit.reply.exchange;
      // Every success answer adds its fields; a field seen with two types is recorded as null (nothing said).
      for (const [k, v] of Object.entries(body)) fields[k] = fields[k] === undefined || fields[k] === typeOf(v) ? typeOf(v) : 'null';
    }
    if (evidence) out.push({ key: endpointKey(e), fields, evidence });
  }
  return out;
}
