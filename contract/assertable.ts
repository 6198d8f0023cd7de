import { z } from 'zod';
import { endpointKey, endpointSuccess, endpointSuccessKnown, publicEnvelopeOf, successSchema } from './endpoints.ts';
import type { Endpoint } from './endpoint-type.ts';
import type { Profile } from './profile.ts';
import { isoUtcTimestamp } from './refinements.ts';
import { SPEC_NAMED } from './spec-named.ts';
import { rateBounded } from './rate-bound.ts';

// The one answer to "what may lendcheck require of this success answer, under this profile?"
// (issue 38). The gate's contract step, every conformance check, the fixtures, the OpenAPI
// export and the load scenarios ask here, so two checks of one body can never disagree.
//
// - A body the spec shows: the spec's schema (contract/schemas.ts), envelope as the profile says.
// - A body the spec leaves "not shown": only what the spec does say of any body (JSON; the
//   {data, timestamp} wrapper where the profile puts one) and the id field the profile names
//   (`ids.*`, required: links and fixtures read it). Everything else lendcheck believes of it is
//   ADVICE (issue 47): a field part 2 types for another resource (`maturity: null` in an order
//   book is no position's maturity), the types `profile detect` saw once (`responses`), the
//   profile's rate bound. Advice is a note with its evidence, a failure only under --strict.
//   Never the reference sandbox's own shapes (contract/shapes.ts): those bind only the sandbox,
//   and a target only under --strict.

export { SPEC_NAMED, SPEC_NAMED_FIELDS, type SpecNamed } from './spec-named.ts';

/**
 * A JSON type `profile detect` recorded for a field (contract/profile.ts JSON_FIELD_TYPES), as
 * advice (seen once, it binds nothing). Or null: an answer seen once shows what a field holds,
 * not that it is never empty.
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
  /** The payload (inside any public wrapper) as far as it may be judged: what may FAIL a target. */
  payload: z.ZodType;
  /**
   * Not shown by the spec: what lendcheck believes of the payload beyond what binds (part 2's
   * types of same-named fields, the recorded types, the rate bound). Advice: a note, a failure
   * only under --strict. `fields` holds its rules field by field (for a document's description).
   */
  advice?: z.ZodType;
  fields?: z.ZodObject;
  /** Fields required of the payload (a named id): what a link or a fixture may read from it. */
  required: string[];
}

/** Judges `v` with `object` where `v` is an object; any other JSON form passes. */
const whereObject = (object: z.ZodType) =>
  z.unknown().superRefine((v, ctx) => {
    if (!isObject(v)) return;
    const r = object.safeParse(v);
    if (!r.success) for (const i of r.error.issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
  });

/**
 * What may be required of a body the spec does not show: JSON (any value) and the named id, a
 * non-empty string, present. What is believed besides (the advice): the spec-named fields'
 * types, the recorded fields' types, the profile's rate bound, each where present.
 */
function notShownPayload(p: Profile, e: Endpoint): Assertable {
  const recorded = recordedFields(p, e) ?? {};
  const id = idFieldOf(p, e);
  const payload = id ? z.looseObject({ [id]: z.string().min(1) }) : z.unknown();
  const shape: Record<string, z.ZodType> = {};
  for (const k of new Set([...Object.keys(SPEC_NAMED), ...Object.keys(recorded)])) {
    const rules = [SPEC_NAMED[k]?.type, recorded[k] ? RECORDED[recorded[k]] : undefined].filter((r): r is z.ZodType => !!r);
    shape[k] = (rules.length === 2 ? z.intersection(rules[0]!, rules[1]!) : (rules[0] ?? z.unknown())).optional();
  }
  const fields = z.looseObject(shape);
  return {
    source: Object.keys(recorded).length || id ? 'profile' : 'conventions',
    payload,
    advice: rateBounded(whereObject(fields), p.bounds.rateBelow),
    fields,
    required: id ? [id] : [],
  };
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

/**
 * One finding about an answer: "expected … / received …", and what it rests on: the
 * requirement whose sentence binds it (contract/requirements.ts), or the profile option.
 */
export interface Finding {
  expected: string;
  received: string;
  requirement?: string;
  profile?: string;
}

/** What a finding rests on, said after what was received: " (SHAPE-position)", " (profile ids (ref))". */
export const citing = (f: Finding) => (f.requirement ? ` (${f.requirement})` : f.profile ? ` (profile ${f.profile})` : '');

export interface Judgement {
  /** Broken rules, each citing the requirement (or profile record) that binds it; empty when the answer may pass. */
  failures: Finding[];
  /**
   * What lendcheck believes of the answer but the spec does not state of it (a same-named field
   * of another type in a not-shown body, a recorded type): a note with its evidence, never a
   * failure but under --strict.
   */
  advisories: Finding[];
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
 * Content-Type (unless the status is 204 or 205 and the body empty), the public wrapper (which endpoints wrap is the profile's choice; what a
 * wrapper holds is the spec's), and the payload against `assertable`. `json` is undefined when
 * the body did not parse.
 */
export function judgeSuccess(p: Profile, e: Endpoint, answer: { status: number; json: unknown; text: string; contentType?: string }): Judgement {
  const out: Judgement = { failures: [], advisories: [], choices: [], notes: [], payload: answer.json };
  const want = endpointSuccess(p, e);
  const show = (v: unknown) => (JSON.stringify(v) ?? String(v)).slice(0, 200);
  if (answer.status < 200 || answer.status > 299) {
    out.failures.push({ expected: `a 2xx success (profile: ${want})`, received: `${answer.status} ${show(answer.json ?? answer.text)}`, requirement: e.requirements[0] });
    return out;
  }
  // A status the profile records as unknown (null) is no choice to follow: any 2xx is the target's own.
  const known = endpointSuccessKnown(p, e);
  if (known !== undefined) out.choices.push({ option: `successStatus["${e.id === 'rates.get' ? 'GET /rates' : endpointKey(e)}"]`, expected: String(known), followed: answer.status === known, received: String(answer.status) });
  // 204 No Content and 205 Reset Content carry no body (RFC 9110): an empty one is judged no further.
  if ((answer.status === 204 || answer.status === 205) && answer.text.trim() === '') return out;
  // "A REST interface over JSON" (part 1): the answer says so, when the caller saw its headers.
  if (answer.contentType !== undefined && !/^application\/json\b/i.test(answer.contentType)) {
    out.failures.push({ expected: 'Content-Type application/json', received: `Content-Type ${show(answer.contentType || '(none)')}`, requirement: 'EP-json' });
    return out;
  }
  if (answer.json === undefined) {
    out.failures.push({ expected: 'a JSON body', received: show(answer.text.slice(0, 80)), requirement: 'EP-json' });
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
        out.failures.push({ expected: 'the public wrapper {data, timestamp} with an ISO 8601 UTC timestamp', received: `${issuesLine(env.error)} in ${show(body)}`, requirement: 'PUB-envelope' });
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
    const id = a.required[0];
    out.failures.push(
      a.source === 'spec'
        ? { expected: 'a body matching the spec schema', received: `${issuesLine(parsed.error)} in ${show(body)}`, requirement: shapeRequirementOf(e) }
        : { expected: `the id field the profile names (ids: ${id}), a non-empty string`, received: `${issuesLine(parsed.error)} in ${show(body)}`, profile: `ids (${id})` },
    );
  }
  if (a.advice) out.advisories.push(...adviceOf(a.advice, body, show, e));
  return out;
}

/** The requirement whose sentence gives an endpoint's shown body: its SHAPE-*, else its EP-*. */
export const shapeRequirementOf = (e: Pick<Endpoint, 'requirements'>) => e.requirements.find((r) => r.startsWith('SHAPE-')) ?? e.requirements[0];

/** Each field the advice finds, one finding: what part 2 (or the profile) says of the name, and where it binds. */
function adviceOf(advice: z.ZodType, body: unknown, show: (v: unknown) => string, e: Endpoint): Finding[] {
  const r = advice.safeParse(body);
  if (r.success) return [];
  const byField = new Map<string, z.core.$ZodIssue[]>();
  for (const i of r.error.issues) {
    const k = String(i.path[0] ?? '(root)');
    byField.set(k, [...(byField.get(k) ?? []), i]);
  }
  return [...byField.entries()].map(([k, issues]) => {
    const named = SPEC_NAMED[k];
    const value = isObject(body) ? show(body[k]) : show(body);
    const msg = issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return named
      ? { expected: `\`${k}\` as part 2 types it in ${named.where}; the spec does not show the ${e.method} ${e.path} body, so this is advice, not a failure`, received: `${msg} (value ${value})`, requirement: named.requirement }
      : { expected: `\`${k}\` of the type \`profile detect\` recorded (responses["${endpointKey(e)}"]): seen once, so advice, not a failure`, received: `${msg} (value ${value})`, profile: `responses["${endpointKey(e)}"].fields.${k}` };
  });
}
