import { z } from 'zod';
import { WEBHOOK_SECRET_PREFIX } from './constants.ts';
import { endpointKey, endpointSuccess, publicEnvelopeOf, successSchema } from './endpoints.ts';
import type { Endpoint } from './endpoint-type.ts';
import type { Profile } from './profile.ts';
import { decimalString, fractionRate, isoUtcTimestamp } from './refinements.ts';
import { rateBounded } from './rate-bound.ts';

// The one answer to "what may lendcheck require of this success answer, under this profile?"
// (issue 38). The gate's contract step, every conformance check, the fixtures, the OpenAPI
// export and the load scenarios ask here, so two checks of one body can never disagree.
//
// - A body the spec shows: the spec's schema (contract/schemas.ts), envelope as the profile says.
// - A body the spec leaves "not shown": only what the spec does say of any body (JSON; the
//   {data, timestamp} wrapper where the profile puts one; the types part 2 gives the fields it
//   names, should such a field appear at the top of the payload), plus what the profile records
//   of it (`responses`: fields `profile detect` saw, each typed, none required; `ids.*`: the
//   field holding the id, required). Never the reference sandbox's own shapes
//   (contract/shapes.ts): those bind only the sandbox, and a target only under --strict.

/**
 * Fields part 2 names with a type, by name: if one appears at the top of a body the spec does
 * not show, it holds what part 2 says (amounts are decimal strings, rates numbers, timestamps
 * ISO 8601 UTC; ids, assets and statuses strings; the auto-flags booleans; a subscription's
 * secret carries the whsec_ prefix). Nested fields are left alone: nothing says what they are.
 */
export const SPEC_NAMED_FIELDS: Record<string, z.ZodType> = {
  amount: decimalString,
  totalLent: decimalString,
  totalBorrowed: decimalString,
  projectedReturn: decimalString,
  accruedInterest: decimalString,
  borrowAmount: decimalString,
  rate: fractionRate,
  lendRate: fractionRate,
  borrowRate: fractionRate,
  spread: z.number().finite(),
  createdAt: isoUtcTimestamp,
  matchedAt: isoUtcTimestamp,
  timestamp: isoUtcTimestamp,
  positionId: z.string(),
  userId: z.string(),
  asset: z.string(),
  borrowAsset: z.string(),
  status: z.string(),
  type: z.string(),
  maturity: z.string(),
  autoRollover: z.boolean(),
  autoRefinance: z.boolean(),
  events: z.array(z.string()),
  secret: z.string().regex(new RegExp(`^${WEBHOOK_SECRET_PREFIX}`), `must start with ${WEBHOOK_SECRET_PREFIX}`),
};

/**
 * A JSON type `profile detect` recorded for a field (contract/profile.ts JSON_FIELD_TYPES), as a
 * rule. Or null: an answer seen once shows what a field holds, not that it is never empty.
 */
const RECORDED: Record<string, z.ZodType> = {
  string: z.string().nullable(),
  number: z.number().nullable(),
  integer: z.number().int().nullable(),
  boolean: z.boolean().nullable(),
  object: z.record(z.string(), z.unknown()).nullable(),
  array: z.array(z.unknown()).nullable(),
  // Seen null once: another time it may hold anything, so nothing is said.
  null: z.unknown(),
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The id field the profile names for an endpoint's success body (`ids.*`), when it names one. */
export function idFieldOf(p: Profile, e: Pick<Endpoint, 'id'>): string | undefined {
  switch (e.id) {
    case 'webhooks.create':
      return p.ids.webhook;
    case 'user.withdraw':
      return p.ids.withdrawal;
    case 'borrow.create':
      return p.ids.borrow;
    case 'position.repay':
      return p.ids.repay;
    default:
      return undefined;
  }
}

/** Fields the profile records for an endpoint's body (`responses`, learned by `profile detect`). */
export function recordedFields(p: Profile, e: Pick<Endpoint, 'method' | 'path'>): Record<string, string> | undefined {
  return p.responses[endpointKey(e)]?.fields;
}

/** Whether the spec shows this endpoint's success body (lendcheck's own sandbox controls count as shown). */
export const specShowsBody = (e: Pick<Endpoint, 'responseSource' | 'access'>) => e.responseSource === 'spec' || e.access === 'sandbox';

/** What a rule rests on: the spec's schema, the profile's record, or only the spec's conventions. */
export type AssertableSource = 'spec' | 'profile' | 'conventions';

export interface Assertable {
  source: AssertableSource;
  /** The payload (inside any public wrapper) as far as it may be judged. */
  payload: z.ZodType;
  /** Not shown by the spec: the rules of the payload's fields where it is an object (for a document). */
  fields?: z.ZodObject;
  /** Fields required of the payload (a named id): what a link or a fixture may read from it. */
  required: string[];
}

/**
 * What may be required of a body the spec does not show: JSON (any value; an object is
 * judged field by field), the spec-named fields' types, the recorded fields' types, the named id.
 */
function notShownPayload(p: Profile, e: Endpoint): Assertable {
  const recorded = recordedFields(p, e) ?? {};
  const id = idFieldOf(p, e);
  const names = new Set([...Object.keys(SPEC_NAMED_FIELDS), ...Object.keys(recorded), ...(id ? [id] : [])]);
  const shape: Record<string, z.ZodType> = {};
  for (const k of names) {
    const rules = [SPEC_NAMED_FIELDS[k], recorded[k] ? RECORDED[recorded[k]] : undefined].filter((r): r is z.ZodType => !!r);
    const rule = rules.length === 2 ? z.intersection(rules[0]!, rules[1]!) : (rules[0] ?? z.string());
    // The named id: a non-empty string, present (which any recorded or spec-named string rule allows).
    shape[k] = k === id ? z.string().min(1) : rule.optional();
  }
  const object = z.looseObject(shape);
  // Only an object has fields; a body of another JSON form is judged on being JSON, unless an id is named.
  const payload = id
    ? object
    : z.unknown().superRefine((v, ctx) => {
        if (!isObject(v)) return;
        const r = object.safeParse(v);
        if (!r.success) for (const i of r.error.issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
      });
  // The profile's rate bound holds in every answer (contract/rate-bound.ts), shown or not.
  return { source: Object.keys(recorded).length || id ? 'profile' : 'conventions', payload: rateBounded(payload, p.bounds.rateBelow), fields: object, required: id ? [id] : [] };
}

/** What may be required of an endpoint's success payload under the profile. */
export function assertable(p: Profile, e: Endpoint): Assertable {
  if (specShowsBody(e)) return { source: 'spec', payload: e.response, required: [] };
  return notShownPayload(p, e);
}

/** The whole body (public wrapper included where the profile puts one), e.g. for a document. */
export function assertableBody(p: Profile, e: Endpoint): z.ZodType {
  if (specShowsBody(e)) return successSchema(p, e);
  const { payload } = notShownPayload(p, e);
  return e.access === 'public' && publicEnvelopeOf(p, e) === 'data' ? z.looseObject({ data: payload, timestamp: isoUtcTimestamp }) : payload;
}

/** A point where the spec is silent and the profile decides (a note, or a failure under --strict). */
export interface ChoiceSeen {
  option: string;
  expected: string;
  followed: boolean;
  received?: string;
}

export interface Judgement {
  /** Broken rules, each "expected … / received …"; empty when the answer may pass. */
  failures: Array<{ expected: string; received: string }>;
  /** Profile choices the answer followed or not. */
  choices: ChoiceSeen[];
  notes: string[];
  /** The payload, unwrapped from {data, timestamp} when it came wrapped. */
  payload: unknown;
}

/** Zod issues as one line: path and message of the first few. */
export function issuesLine(error: z.ZodError, max = 3): string {
  return error.issues
    .slice(0, max)
    // zod says "received undefined" for a missing field: say "absent", so no message reads undefined.
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message.replace(/received undefined/g, 'absent').replace(/\bundefined\b/g, '(absent)')}`)
    .join('; ');
}


/**
 * Judges one success answer: a 2xx (which one is the profile's choice), a JSON body with its
 * Content-Type (unless the status is 204 and the body empty), the public wrapper (which endpoints wrap is the profile's choice; what a
 * wrapper holds is the spec's), and the payload against `assertable`. `json` is undefined when
 * the body did not parse.
 */
export function judgeSuccess(p: Profile, e: Endpoint, answer: { status: number; json: unknown; text: string; contentType?: string }): Judgement {
  const out: Judgement = { failures: [], choices: [], notes: [], payload: answer.json };
  const want = endpointSuccess(p, e);
  const show = (v: unknown) => (JSON.stringify(v) ?? String(v)).slice(0, 200);
  if (answer.status < 200 || answer.status > 299) {
    out.failures.push({ expected: `a 2xx success (profile: ${want})`, received: `${answer.status} ${show(answer.json ?? answer.text)}` });
    return out;
  }
  out.choices.push({ option: `successStatus["${e.id === 'rates.get' ? 'GET /rates' : endpointKey(e)}"]`, expected: String(want), followed: answer.status === want, received: String(answer.status) });
  if (answer.status === 204 && answer.text.trim() === '') return out;
  // "A REST interface over JSON" (part 1): the answer says so, when the caller saw its headers.
  if (answer.contentType !== undefined && !/^application\/json\b/i.test(answer.contentType)) {
    out.failures.push({ expected: 'Content-Type application/json', received: `Content-Type ${show(answer.contentType || '(none)')}` });
    return out;
  }
  if (answer.json === undefined) {
    out.failures.push({ expected: 'a JSON body', received: show(answer.text.slice(0, 80)) });
    return out;
  }
  let body: unknown = answer.json;
  if (e.access === 'public') {
    const form = publicEnvelopeOf(p, e);
    // A wrapper is {data, timestamp}; a bare body may well have a `data` field of its own (as detection reads it too).
    const seen = isObject(body) && 'data' in body && 'timestamp' in body ? 'data' : 'bare';
    out.choices.push({ option: `publicEnvelope["${e.path}"]`, expected: form, followed: seen === form, received: seen });
    if (seen === 'data') {
      const env = z.looseObject({ data: z.unknown(), timestamp: isoUtcTimestamp }).safeParse(body);
      if (!env.success) {
        out.failures.push({ expected: 'the public wrapper {data, timestamp} with an ISO 8601 UTC timestamp', received: `${issuesLine(env.error)} in ${show(body)}` });
        return out;
      }
      body = (body as { data: unknown }).data;
    } else if (form === 'data' && !specShowsBody(e)) {
      out.notes.push(`${e.path} answered without the {data, timestamp} wrapper the profile says it uses`);
    }
  }
  out.payload = body;
  const a = assertable(p, e);
  const parsed = a.payload.safeParse(body);
  if (!parsed.success) {
    const what = a.source === 'spec' ? 'a body matching the spec schema' : a.source === 'profile' ? "a body with the spec's field types and what the profile records" : "a body with the spec's field types (the spec shows no more of it)";
    out.failures.push({ expected: what, received: `${issuesLine(parsed.error)} in ${show(body)}` });
  }
  return out;
}
