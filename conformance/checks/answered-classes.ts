import { LIST_LIMIT_MAX, type Profile } from '../../contract/index.ts';
import type { CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';

// One malformed class, one request a run (issue 48). errors.invalid.* sends the contract's
// generated cases field by field and holds each answer to 400 invalid_request; the fuzz corpus
// then draws random bodies, query values and path ids and holds each answer to "a 4xx with the
// error object, never a 5xx". A random value whose class (endpoint, field, how it is broken) an
// earlier request of the run was already answered for is judged from that answer, by the fuzz
// rule, instead of being sent again: a service that refuses a missing userId refuses it whatever
// else a random dict carries, and one that checks `typeof x !== 'string'` refuses every
// non-string alike. A class no request has met yet is sent (and recorded), so the corpus still
// reaches what the generated table does not: bodies that are no object, special characters in
// a query value or a path id, numbers past a safe integer.

const KEY = 'requests:answered-classes';

/** An answer a class was met with: the reply, the value sent and what the sender called it. */
export interface Answered {
  reply: Reply;
  value: unknown;
  what: string;
}

function record(ctx: Pick<CheckContext, 'shared'>): Map<string, Answered> {
  let m = ctx.shared.get(KEY) as Map<string, Answered> | undefined;
  if (!m) ctx.shared.set(KEY, (m = new Map()));
  return m;
}

/** Records the first answer of a class this run (a later one of the same class does not replace it). */
export function recordClass(ctx: Pick<CheckContext, 'shared'>, key: string | undefined, a: Answered): void {
  if (key === undefined) return;
  const m = record(ctx);
  if (!m.has(key)) m.set(key, a);
}

/** The answer a class was already met with this run, if any. */
export const answeredClass = (ctx: Pick<CheckContext, 'shared'>, key: string | undefined): Answered | undefined => (key === undefined ? undefined : record(ctx).get(key));

interface Parses {
  safeParse(v: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; code: string }> } };
}

/**
 * The malformed class of a request body under its endpoint's schema: a body that is no object
 * (`null`, which a handler that destructures its body crashes on; or `no-object`, an array or a
 * scalar, which a handler reads as an object without fields and a validator refuses as no
 * object alike), or the first field the schema refuses and how: `missing`, `null`, `type`
 * (another JSON type: one class, as part 7 binds one answer to all of them) or `value` (the
 * right type, a value outside the rule). Undefined for a body the schema takes.
 */
export function bodyClass(endpoint: string, schema: Parses, body: unknown): string | undefined {
  if (body === null) return `${endpoint} body null`;
  if (typeof body !== 'object' || Array.isArray(body)) return `${endpoint} body no-object`;
  const p = schema.safeParse(body);
  if (p.success) return undefined;
  const issue = p.error?.issues[0];
  if (!issue) return undefined;
  const path = issue.path.map(String);
  const v = path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), body);
  const how = v === undefined ? 'missing' : v === null ? 'null' : issue.code === 'invalid_type' ? 'type' : 'value';
  return `${endpoint} body ${path.join('.') || '(body)'} ${how}`;
}

/**
 * The class of a query value: blank, padded, and for a numeric parameter (`max` given, Infinity
 * when none) an integer below 1, in range, past the maximum, past a safe integer, a fraction or
 * no number; for any other, plain (letters, digits, `-`, `_`, `.`) or with special characters.
 */
export function queryClass(endpoint: string, key: string, value: string, max?: number): string {
  const at = `${endpoint} query ${key}`;
  if (value.trim() === '') return `${at} blank`;
  if (value.trim() !== value) return `${at} padded`;
  if (max !== undefined) {
    if (/^-?\d+$/.test(value)) {
      const n = Number(value);
      return `${at} ${!Number.isSafeInteger(n) ? 'huge' : n < 1 ? 'below-min' : n > max ? 'over-max' : 'in-range'}`;
    }
    if (/^-?\d*\.\d+$/.test(value)) return `${at} fraction`;
  }
  return `${at} ${/^[A-Za-z0-9._-]+$/.test(value) ? 'plain' : 'special'}`;
}

/**
 * The last answer the run's log holds for `endpoint` asked with exactly this query (whatever its
 * path parameters), as a reply: each distinct (endpoint, parameter, value) is sent once a run,
 * and a check that needs it again judges that answer (pagination.max-limit's limit=101 for
 * errors.invalid.query). Undefined when none, or when the recorded body is clipped (not JSON).
 */
export function loggedAnswer(ctx: Pick<CheckContext, 'http'>, endpoint: string, query: Record<string, string>): Reply | undefined {
  return logged(ctx, endpoint, (q) => [...q.keys()].length === Object.keys(query).length && Object.entries(query).every(([k, v]) => q.get(k) === v));
}

/** The last answer in the run's log of `endpoint` asked with `key` alone, whose value is of class `cls` (queryClass): any check's request counts. */
export function loggedQueryClass(ctx: Pick<CheckContext, 'http'>, endpoint: string, key: string, cls: string, max?: number): Answered | undefined {
  let value = '';
  const r = logged(ctx, endpoint, (q) => [...q.keys()].length === 1 && q.has(key) && queryClass(endpoint, key, (value = q.get(key)!), max) === cls);
  return r && { reply: r, value, what: `${r.exchange.method} ${r.exchange.url.replace(/^https?:\/\/[^/]+/, '')} (an earlier check of the run)` };
}

function logged(ctx: Pick<CheckContext, 'http'>, endpoint: string, match: (q: URLSearchParams) => boolean): Reply | undefined {
  for (let i = ctx.http.log.length - 1; i >= 0; i--) {
    const x = ctx.http.log[i]!;
    if (x.endpoint !== endpoint || x.status === null || !match(new URL(x.url).searchParams)) continue;
    const text = x.responseBody ?? '';
    try {
      return { status: x.status, headers: x.responseHeaders ?? {}, text, json: text ? JSON.parse(text) : undefined, exchange: x };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A numeric query parameter's maximum (part 8's for limit, the profile's or none for depth); undefined for one that is no number. */
export function queryMax(profile: Profile, key: string): number | undefined {
  if (key === 'limit') return LIST_LIMIT_MAX;
  if (key === 'depth') return profile.bounds.orderbookMaxDepth ?? Infinity;
  return undefined;
}

/** The class of a path id: plain or with special characters. */
export const pathClass = (endpoint: string, id: string): string => `${endpoint} path ${/^[A-Za-z0-9._-]+$/.test(id) ? 'plain' : 'special'}`;
