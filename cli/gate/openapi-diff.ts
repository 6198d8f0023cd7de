import { SHOWN_BY, SHOWN_BY_OPTION } from '../../contract/openapi/by-profile.ts';
import { OPEN_REQUIRED } from '../../contract/openapi/exact.ts';
// A target's own OpenAPI document against the one lendcheck exports under the profile
// (contract/openapi/document.ts): each difference is a finding naming the operation and the field.
// A failure is where the target's document contradicts what the spec and the profile say
// (an operation, a success status, a required field or parameter, a type, a closed list);
// where the target's document says more than the export knows (an extra operation, a field
// the spec leaves "not shown"), it is a note: a correct service may document more. Hand-written:
// the OpenAPI diff tools of the field (oasdiff, openapi-diff) compare two versions of one API
// for breaking changes, not a document against a contract that leaves parts open.

type Json = Record<string, unknown>;

export interface Finding {
  /** "POST /webhooks" in the export's own path form. */
  operation: string;
  /** Where in the operation: "requestBody.secret", "responses", "query.period", "response.positionId". */
  field: string;
  severity: 'failed' | 'note';
  expected: string;
  received: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Method and path with parameter names erased: services name them freely. */
const opKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}').replace(/\/$/, '')}`;

/** Follows local $refs ("#/components/schemas/X"), a few levels deep; an unresolvable one reads as an open schema. */
function deref(doc: Json, v: unknown, depth = 0): Json {
  if (!v || typeof v !== 'object') return {};
  const ref = (v as Json).$ref;
  if (typeof ref !== 'string' || depth > 20) return v as Json;
  if (!ref.startsWith('#/')) return {};
  let at: unknown = doc;
  for (const seg of ref.slice(2).split('/')) at = (at as Json | undefined)?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  return deref(doc, at, depth + 1);
}

/** The object schema's properties and required names, through allOf (3.0 and 3.1 alike). */
function objectOf(doc: Json, s: unknown): { properties: Record<string, Json>; required: Set<string> } {
  const schema = deref(doc, s);
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  for (const [k, v] of Object.entries((schema.properties as Record<string, unknown>) ?? {})) properties[k] = deref(doc, v);
  for (const r of (schema.required as string[] | undefined) ?? []) required.add(r);
  for (const part of (schema.allOf as unknown[] | undefined) ?? []) {
    const sub = objectOf(doc, part);
    Object.assign(properties, sub.properties);
    for (const r of sub.required) required.add(r);
  }
  return { properties, required };
}

/** The JSON type(s) a schema states, or undefined when it states none (anyOf, open). */
function typesOf(s: Json): string[] | undefined {
  const t = s.type;
  const list = typeof t === 'string' ? [t] : Array.isArray(t) ? (t as string[]) : undefined;
  if (!list) return undefined;
  // integer is a number; 3.0's nullable is 3.1's "null" in the type list.
  const out = new Set(list.map((x) => (x === 'integer' ? 'number' : x)));
  if (s.nullable === true) out.add('null');
  return [...out].sort();
}

const bodySchema = (doc: Json, container: unknown): Json | undefined => {
  const c = deref(doc, container);
  const content = c.content as Record<string, Json> | undefined;
  const media = content?.['application/json'] ?? Object.entries(content ?? {}).find(([k]) => k.includes('json'))?.[1];
  return media ? deref(doc, media.schema) : undefined;
};

interface Op { path: string; method: string; op: Json; pathParams: Json[] }

function operations(doc: Json, prefix: string): Map<string, Op> {
  const out = new Map<string, Op>();
  for (const [path, item] of Object.entries((doc.paths as Record<string, Json>) ?? {})) {
    const bare = prefix && path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
    for (const m of METHODS) {
      const op = item?.[m] as Json | undefined;
      if (!op) continue;
      out.set(opKey(m, bare), { path: bare, method: m.toUpperCase(), op, pathParams: (item.parameters as Json[] | undefined) ?? [] });
    }
  }
  return out;
}

function params(doc: Json, o: Op): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const p of [...o.pathParams, ...((o.op.parameters as unknown[] | undefined) ?? [])].map((x) => deref(doc, x))) {
    if (p.in === 'query' || p.in === 'header') out.set(`${p.in}.${String(p.name).toLowerCase()}`, p);
  }
  return out;
}

/**
 * Every difference between the export (`ours`) and the target's document (`theirs`).
 * `prefix` is the base URL's path ("/v1"), which a document may put in its paths or leave to
 * servers[].url. `skip` names operations of the export not to compare (lendcheck's controls).
 */
export function diffOpenApi(ours: Json, theirs: Json, o: { prefix?: string; skip?: (operationId: string) => boolean } = {}): Finding[] {
  const findings: Finding[] = [];
  const a = operations(ours, '');
  const b = operations(theirs, o.prefix ?? '');
  const add = (operation: string, field: string, severity: Finding['severity'], expected: string, received: string) => findings.push({ operation, field, severity, expected, received });

  for (const [key, mine] of a) {
    if (o.skip?.(String(mine.op.operationId ?? ''))) continue;
    const name = `${mine.method} ${mine.path}`;
    const other = b.get(key);
    if (!other) {
      // An operation the export has only by a profile choice (part 4's table does not list it, or not
      // its path) may be the profile's default where detection never reached it: a note naming the option.
      const option = mine.op[SHOWN_BY] === 'profile' ? String(mine.op[SHOWN_BY_OPTION] ?? 'a profile option') : undefined;
      if (option) add(name, '(operation)', 'note', `the operation, under the profile's ${option} (spec part 4 does not list it: the profile's choice)`, 'no such operation in the target\'s document');
      else add(name, '(operation)', 'failed', 'the operation (spec part 4, under the profile)', 'no such operation in the target\'s document');
      continue;
    }
    // Success statuses: where the profile knows one, the target's document must offer it. Where
    // the profile records it as unknown (the export's `2XX`), any 2xx the target documents is its
    // own choice (part 4: "Success status codes: not shown"), never held to a default.
    const okMine = Object.keys((mine.op.responses as Json) ?? {}).filter((s) => /^2\d\d$/.test(s));
    const okTheirs = Object.keys((other.op.responses as Json) ?? {}).filter((s) => /^2(\d\d|XX)$/i.test(s));
    for (const s of okMine) {
      if (!okTheirs.includes(s) && !okTheirs.some((t) => /^2XX$/i.test(t))) add(name, 'responses', 'failed', `success status ${s} (profile successStatus)`, okTheirs.length ? `success status ${okTheirs.join(', ')}` : 'no success status');
    }
    // Query and header parameters the export states.
    const pm = params(ours, mine);
    const pt = params(theirs, other);
    for (const [k, p] of pm) {
      const q = pt.get(k);
      if (!q) {
        add(name, k, 'failed', `parameter ${String(p.name)}`, 'no such parameter');
        continue;
      }
      if (q.required === true && p.required !== true) add(name, k, 'failed', 'optional', 'required');
      const e1 = (deref(ours, p.schema).enum as unknown[] | undefined)?.map(String).sort();
      const e2 = (deref(theirs, q.schema).enum as unknown[] | undefined)?.map(String).sort();
      if (e1 && e2) compareEnum(e1, e2, (sev, exp) => add(name, k, sev, `${exp} (profile)`, `one of ${e2.join(', ')}`));
    }
    for (const [k, q] of pt) if (!pm.has(k) && q.required === true && q.in === 'query') add(name, k, 'failed', 'no such required parameter', `required parameter ${String(q.name)}`);
    // The request body: required fields and the types both state.
    const rb1 = bodySchema(ours, mine.op.requestBody);
    const rb2 = bodySchema(theirs, other.op.requestBody);
    if (rb1 && rb2) compareBodies(ours, theirs, rb1, rb2, name, 'requestBody', 'request', add);
    else if (rb1 && !rb2) add(name, 'requestBody', 'failed', 'a JSON request body', 'none');
    // The success body: what the export requires must be there; what the target adds is a note.
    const anyMine = (mine.op.responses as Json | undefined)?.['2XX'] !== undefined;
    const same = okMine.find((x) => okTheirs.includes(x));
    const pair = same ? [same, same] : anyMine && okTheirs.length ? ['2XX', okTheirs[0]!] : undefined;
    if (pair) {
      const [s, t] = pair as [string, string];
      const r1 = bodySchema(ours, (mine.op.responses as Json)[s]);
      const r2 = bodySchema(theirs, (other.op.responses as Json)[t]);
      // A body the spec does not show holds what the profile recorded: a field the target's own
      // document does not promise is a note there (the profile saw it once), never a contradiction.
      const byProfile = ((mine.op.responses as Json)[s] as Json | undefined)?.[SHOWN_BY] === 'profile';
      if (r1 && r2) compareBodies(ours, theirs, r1, r2, name, 'response', byProfile ? 'recorded' : 'response', add);
      else if (r1 && !r2 && objectOf(ours, r1).required.size) add(name, `response ${s}`, 'failed', 'a JSON body', 'none documented');
    }
  }
  for (const [key, other] of b) {
    if (!a.has(key) && other.method !== 'OPTIONS' && other.method !== 'HEAD') add(`${other.method} ${other.path}`, '(operation)', 'note', 'not in the export under this profile', 'documented by the target');
  }
  return findings;
}

type Add = (op: string, field: string, sev: Finding['severity'], exp: string, rec: string) => void;
type Kind = 'request' | 'response' | 'recorded';

/** A body's alternatives: the branches of a pure union (anyOf or oneOf with no properties of its own), else the body. */
function alternatives(doc: Json, s: Json, depth = 0): Json[] {
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (!Array.isArray(union) || s.properties !== undefined || s.allOf !== undefined || depth > 5) return [s];
  return union.flatMap((b) => alternatives(doc, deref(doc, b), depth + 1));
}

/**
 * Two bodies, either of which may be a union: the shared order-book path holds the authenticated
 * and the public book (the export's anyOf), and a target may document its own union. Each of the
 * export's alternatives is held to the target's alternative that fits it best (fewest failures,
 * then fewest notes), so a book is compared with a book, never with the other operation's body.
 * An alternative marked with who shows it (document.ts) is held as that: the spec's book to the
 * spec, the profile's to what the profile recorded.
 */
function compareBodies(ours: Json, theirs: Json, s1: Json, s2: Json, name: string, where: string, kind: Kind, add: Add): void {
  const seen = new Set<string>();
  for (const b1 of alternatives(ours, s1)) {
    const k: Kind = kind === 'request' ? kind : b1[SHOWN_BY] === 'profile' ? 'recorded' : b1[SHOWN_BY] === 'spec' ? 'response' : kind;
    let best: Finding[] | undefined;
    for (const b2 of alternatives(theirs, s2)) {
      const found: Finding[] = [];
      compareObject(ours, theirs, b1, b2, name, where, k, (operation, field, severity, expected, received) => found.push({ operation, field, severity, expected, received }));
      const score = (l: Finding[]) => l.filter((f) => f.severity === 'failed').length * 1000 + l.length;
      if (!best || score(found) < score(best)) best = found;
    }
    for (const f of best ?? []) {
      if (seen.has(findingText(f))) continue;
      seen.add(findingText(f));
      add(f.operation, f.field, f.severity, f.expected, f.received);
    }
  }
}

function compareObject(ours: Json, theirs: Json, s1: Json, s2: Json, name: string, where: string, kind: Kind, add: Add): void {
  const mine = objectOf(ours, s1);
  const other = objectOf(theirs, s2);
  // Fields whose requiredness the spec leaves open (POST /webhooks secret): either answer is the target's own.
  const open = new Set((deref(ours, s1)[OPEN_REQUIRED] as string[] | undefined) ?? []);
  for (const f of open) {
    if (mine.required.has(f) !== other.required.has(f)) add(name, `${where}.${f}`, 'note', `${mine.required.has(f) ? 'required' : 'optional'} (the profile's choice; the spec leaves it open)`, other.required.has(f) ? 'required' : f in other.properties ? 'optional' : 'absent');
  }
  for (const f of mine.required) {
    if (other.required.has(f) || open.has(f)) continue;
    if (kind === 'recorded') add(name, `${where}.${f}`, 'note', 'required (recorded by the profile; the spec does not show this body)', f in other.properties ? 'optional' : 'absent');
    else add(name, `${where}.${f}`, 'failed', 'required', f in other.properties ? 'optional' : 'absent');
  }
  for (const f of other.required) {
    if (mine.required.has(f) || open.has(f)) continue;
    // A request field the target requires that the contract leaves optional refuses valid
    // requests; a response field it always sends, where the spec shows nothing, is knowledge.
    if (kind === 'request') add(name, `${where}.${f}`, 'failed', f in mine.properties ? 'optional' : 'no such field', 'required');
    else add(name, `${where}.${f}`, 'note', f in mine.properties ? 'optional' : 'not known to the export (the profile could record it)', 'required');
  }
  for (const [f, p] of Object.entries(mine.properties)) {
    const q = other.properties[f];
    if (!q) continue;
    const t1 = typesOf(p);
    const t2 = typesOf(q);
    if (t1 && t2 && !t1.some((t) => t2.includes(t))) add(name, `${where}.${f}`, 'failed', `type ${t1.join('|')}`, `type ${t2.join('|')}`);
    const e1 = (p.enum as unknown[] | undefined)?.map(String).sort();
    const e2 = (q.enum as unknown[] | undefined)?.map(String).sort();
    if (kind === 'request' && e1 && e2) compareEnum(e1, e2, (sev, exp) => add(name, `${where}.${f}`, sev, exp, `one of ${e2.join(', ')}`));
  }
}

/**
 * A closed list (an enum) of the export against the target's. A value the export holds and the target
 * leaves out contradicts what the spec or the profile knows (a valid request the target refuses): failed.
 * Values the target adds (a WBTC withdrawal where detection learned no WBTC) are a document broader than
 * the profile knows: a note, never a failure (neutrality.md, seed 4).
 */
function compareEnum(e1: string[], e2: string[], add: (sev: Finding['severity'], expected: string) => void): void {
  const missing = e1.filter((v) => !e2.includes(v));
  const extra = e2.filter((v) => !e1.includes(v));
  if (missing.length) add('failed', `one of ${e1.join(', ')} (${missing.join(', ')} left out)`);
  else if (extra.length) add('note', `one of ${e1.join(', ')} (the target documents more: ${extra.join(', ')}; the profile does not know them)`);
}

export const findingText = (f: Finding) => `${f.operation} ${f.field}: expected ${f.expected} / received ${f.received}`;
