import { z } from 'zod';
import { API_VERSION_PREFIX, ERROR_STATUS, RATE_LIMIT_HEADERS } from '../constants.ts';
import { endpoints, endpointSuccessKnown, type Endpoint } from '../endpoints.ts';
import { defaultProfile, type Profile } from '../profile.ts';
import { RATE_FIELDS } from '../rate-bound.ts';
import { errorBody } from '../schemas.ts';
import { errorStatuses, exactBody, exactQuery, linksOf, orderbookSegment } from './exact.ts';
import { documentedSuccess, hasBody, specShowsBody, toSchema, webhooksSection } from './known.ts';
import { operationOption, SHOWN_BY, SHOWN_BY_OPTION } from './by-profile.ts';
import { requestBody } from './requests.ts';

// OpenAPI 3.1 generated from the endpoint table with zod's own JSON Schema export
// (draft 2020-12 is OpenAPI 3.1's dialect, so schemas go in unchanged).

type Json = Record<string, unknown>;

function parameters(profile: Profile, e: Endpoint): Json[] {
  const out: Json[] = [];
  for (const [name, schema] of Object.entries(e.params?.shape ?? {})) {
    out.push({ name, in: 'path', required: true, schema: toSchema(schema as z.ZodType, 'input') });
  }
  const q = e.query ? toSchema(e.query, 'input') : undefined;
  const props = (q?.properties ?? {}) as Record<string, Json>;
  const required = new Set((q?.required as string[] | undefined) ?? []);
  for (const [name, schema] of Object.entries(props)) out.push({ name, in: 'query', required: required.has(name), schema: exactQuery(profile, e, name, schema) });
  return out;
}

/** The three headers of part 8, their units as the profile records them. */
function rateHeaders(p: Profile): Json {
  const unit = { 'delta-seconds': 'seconds until the bucket is full again', 'unix-seconds': 'Unix time in seconds', 'unix-ms': 'Unix time in milliseconds' }[p.limits.resetUnit];
  const limit = p.limits.limitHeader === 'burst' ? 'the bucket capacity (burst)' : 'requests per minute';
  return {
    [RATE_LIMIT_HEADERS.limit]: { schema: { type: 'integer' }, description: `${RATE_LIMIT_HEADERS.limit}: ${limit} (profile limits.limitHeader)` },
    [RATE_LIMIT_HEADERS.remaining]: { schema: { type: 'integer' }, description: `${RATE_LIMIT_HEADERS.remaining}: requests left` },
    [RATE_LIMIT_HEADERS.reset]: { schema: { type: 'integer' }, description: `${RATE_LIMIT_HEADERS.reset}: ${unit} (profile limits.resetUnit)` },
  };
}
const errorRef = (p: Profile, description: string): Json => ({
  description,
  headers: rateHeaders(p),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * The success response's key: the status the profile knows, or the range `2XX` where it records
 * the status as unknown (part 4: "Success status codes: not shown"; a detected profile that never
 * saw the endpoint succeed states no default in its place).
 */
const successCode = (profile: Profile, e: Endpoint): string => String(endpointSuccessKnown(profile, e) ?? '2XX');

function operation(profile: Profile, e: Endpoint, ids: Set<string>): Json {
  const links = linksOf(profile, e, ids);
  const known = endpointSuccessKnown(profile, e) !== undefined;
  const responses: Json = {
    [successCode(profile, e)]: {
      description: `${known ? 'Success' : 'Success, its status unknown to the profile (any 2xx)'} ${specShowsBody(e) ? '(shape from the spec)' : '(shape not shown by the spec: any JSON, and the id field the profile names, as contract/assertable.ts judges it)'}`,
      // Who shows this body: a diff against a target's own document holds the spec's fields to it, and
      // only notes where the target does not promise a field the profile recorded (cli/gate/openapi-diff.ts).
      [SHOWN_BY]: specShowsBody(e) ? 'spec' : 'profile',
      headers: rateHeaders(profile),
      ...(hasBody(profile, e) ? { content: { 'application/json': { schema: documentedSuccess(profile, e) } } } : {}),
      ...(links ? { links } : {}),
    },
  };
  for (const [status, codes] of [...errorStatuses(profile, e)].sort(([a], [b]) => a - b)) responses[String(status)] = errorRef(profile, codes.join(' or '));
  // An operation present only by a profile choice (part 4's table does not list it, or not its path):
  // a target's document without it is a note naming the option, never a contradiction.
  const byOption = operationOption(profile, e);
  const op: Json = {
    operationId: e.id,
    summary: e.summary,
    tags: [e.access],
    'x-requirements': e.requirements,
    ...(byOption ? { [SHOWN_BY]: 'profile', [SHOWN_BY_OPTION]: byOption } : {}),
    security: e.access === 'public' ? [] : [{ bearer: [] }],
    parameters: parameters(profile, e),
    responses,
  };
  if (e.body) op.requestBody = { required: e.id !== 'position.repay', content: { 'application/json': { schema: requestBody(profile, exactBody(profile, e, toSchema(e.body, 'input'))) } } };
  return op;
}

/** Method and path with parameter names erased: /markets/{asset}/… and /markets/{id}/… are one route. */
const shape = (e: Endpoint) => `${e.method} ${e.path.replace(/\{\w+\}/g, '{}')}`;

/**
 * The authenticated and public order books share one path (profile.orderbookPath
 * 'shared-by-auth'). OpenAPI forbids two templates of the same shape, so they are written
 * once: either security option, a segment that is an asset or a market id, and either body.
 * anyOf rather than oneOf: a loose public book also matches an authenticated one's fields.
 * Each success key holds every body an answer with that status may carry: where the two
 * statuses differ (the authenticated one unknown, `2XX`, the public one a known 200), a 200
 * may be either book, so it must not promise the public body alone (soak seeds 12 and 13).
 */
function sharedOperation(profile: Profile, keyed: Endpoint, pub: Endpoint, ids: Set<string>): Json {
  const k = operation(profile, keyed, ids);
  const p = operation(profile, pub, ids);
  const kr = k.responses as Record<string, Json>;
  const pr = p.responses as Record<string, Json>;
  const books = [
    { code: successCode(profile, keyed), response: kr[successCode(profile, keyed)]! },
    { code: successCode(profile, pub), response: pr[successCode(profile, pub)]! },
  ];
  const covers = (code: string, s: string) => code === s || (code === '2XX' && /^2\d\d$/.test(s));
  // Each body marked with who shows it, so a diff holds the spec's book to the spec and the other to the profile.
  const schemaOf = (r: Json): Json | undefined => {
    const schema = ((r.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
    return schema && { ...schema, [SHOWN_BY]: r[SHOWN_BY] };
  };
  const responses: Json = { ...pr, ...kr };
  for (const s of new Set(books.map((b) => b.code))) {
    const here = books.filter((b) => covers(b.code, s));
    if (here.length < 2) {
      responses[s] = here[0]!.response;
      continue;
    }
    // A 204 or 205 carries no body, whichever book answered it.
    const bodies = [204, 205].includes(Number(s)) ? [] : here.flatMap((b) => schemaOf(b.response) ?? []);
    const { content: _none, ...rest } = kr[books[0]!.code]!;
    responses[s] = {
      ...rest,
      description: 'With a key: the authenticated book of an asset (profile shape). Without: the public book of a market (spec shape).',
      ...(bodies.length ? { content: { 'application/json': { schema: bodies.length > 1 ? { anyOf: bodies } : bodies[0] } } } : {}),
    };
  }
  const segment = { name: 'id', in: 'path', required: true, schema: orderbookSegment(profile) };
  return {
    ...k,
    summary: `${keyed.summary} (with a key) or ${pub.summary.toLowerCase()} (without)`,
    tags: [keyed.access, pub.access],
    'x-operation-ids': [keyed.id, pub.id],
    'x-requirements': [...keyed.requirements, ...pub.requirements],
    security: [{ bearer: [] }, {}],
    parameters: [segment, ...(k.parameters as Json[]).filter((x) => x.in !== 'path')],
    responses,
  };
}

/**
 * The profile's rate bound where the endpoint table checks it (contract/rate-bound.ts): every
 * numeric rate field of a body or answer. zod's export cannot see a custom check, so it is said
 * here; without a bound nothing is said (the spec gives none).
 */
function boundRates(node: unknown, below: number): void {
  if (Array.isArray(node)) for (const x of node) boundRates(x, below);
  else if (node && typeof node === 'object') {
    const props = (node as Json).properties as Record<string, Json> | undefined;
    if (props && typeof props === 'object') {
      for (const [k, v] of Object.entries(props)) if (RATE_FIELDS.has(k) && v && v.type === 'number') props[k] = { ...v, exclusiveMaximum: below };
    }
    for (const x of Object.values(node)) boundRates(x, below);
  }
}

export function buildOpenApi(profile: Profile = defaultProfile): Json {
  const paths: Record<string, Json> = {};
  const all = endpoints(profile);
  const ids = new Set(all.map((e) => e.id));
  for (const e of all) {
    const twin = all.find((o) => o !== e && shape(o) === shape(e));
    if (twin && e.access === 'public') continue;
    const at = twin ? twin.path : e.path;
    (paths[at] ??= {})[e.method.toLowerCase()] = twin ? sharedOperation(profile, e, twin, ids) : operation(profile, e, ids);
  }
  const schemas: Json = { Error: toSchema(errorBody, 'output') };
  if (profile.bounds.rateBelow !== null) boundRates([paths, schemas], profile.bounds.rateBelow);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fixed-Rate Lending Partner Interface',
      version: '1.0.0',
      description: `Generated by lendcheck from contract/ under profile "${profile.name}". Error codes: ${Object.keys(ERROR_STATUS).join(', ')}.`,
    },
    servers: [{ url: `http://127.0.0.1:4010${API_VERSION_PREFIX}`, description: 'lendcheck reference sandbox' }],
    paths,
    webhooks: webhooksSection(profile),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'ck_test_ (sandbox) or ck_live_ (production) key' } },
      schemas,
    },
  };
}

export function openApiText(profile: Profile = defaultProfile): string {
  return `${JSON.stringify(buildOpenApi(profile), null, 2)}\n`;
}
