import type { z } from 'zod';
import { durationString, endpoints, maturityInput, neighbours, positiveDecimalString, requestRule, valueSetOf, valueSets, type Endpoint, type Profile, type RequestRule } from '../contract/index.ts';

// The one derivation of request edge cases from the contract: each request field and query
// parameter a schema of the endpoint table constrains (an enum, a bound, a format, a type, a
// requirement), and the values at its edges. Enum neighbours are values valid elsewhere in the
// spec (contract/request-rules.ts); bounds are taken at ±1 and at the limit; formats get their
// near misses. cases.ts turns them into bodies, query-cases.ts into query strings.

export type CaseKind = 'missing' | 'type' | 'neighbour' | 'case' | 'empty' | 'unknown' | 'bound' | 'format' | 'value';

export interface EdgeValue {
  kind: CaseKind;
  what: string;
  value: unknown;
  /** For a neighbour: the value sets of the spec (or profile) it is valid in (contract/request-rules.ts). */
  sets?: string[];
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional/nullable/default wrappers, and whether a value may be left out. */
export function unwrap(s: z.ZodType): { inner: z.ZodType; optional: boolean } {
  let inner = s;
  let optional = false;
  for (let d = defOf(inner); ['optional', 'nullable', 'default', 'prefault'].includes(d.type) && d.innerType; d = defOf(inner)) {
    if (d.type !== 'nullable') optional = true;
    inner = d.innerType!;
  }
  return { inner, optional };
}

/** An enum's options; for an array of an enum, the element's (`inArray`). */
export function enumOf(s: z.ZodType): { options: string[]; inArray: boolean } | undefined {
  const d = defOf(s);
  if (d.type === 'enum' && d.entries) return { options: Object.values(d.entries), inArray: false };
  if (d.type === 'array' && d.element) {
    const e = enumOf(unwrap(d.element).inner);
    return e && { ...e, inArray: true };
  }
  return undefined;
}

/** A number's finite bounds. */
export function boundsOf(s: z.ZodType): { min?: number; max?: number } | undefined {
  if (defOf(s).type !== 'number') return undefined;
  const n = s as unknown as { minValue: number | null; maxValue: number | null };
  const fin = (v: number | null) => (v !== null && Number.isFinite(v) ? v : undefined);
  return { min: fin(n.minValue), max: fin(n.maxValue) };
}

// Not a word such as `tomorrow`: a parser that refuses `30days` (a duration's pattern without its
// end) refuses a word by the same test, and one that takes it takes `30days` too (issue 48).
const MATURITY_MISSES: Array<[string, string]> = [
  ['a bare number', '30'],
  ['a spelled-out duration', '30days'],
  ['a fractional duration', '30.5d'],
  ['a zero duration', '0d'],
  ['an impossible date', '2026-13-45'],
];

/**
 * Each format's near misses, by the contract's own schema object: values one step from valid.
 * Each is refused by both maturity forms (an ISO date or `<n>d`, part 2), so a service that
 * takes a date where the profile's schema names only durations is never failed by one.
 */
export const NEAR_MISSES: ReadonlyMap<z.ZodType, Array<[string, string]>> = new Map([
  // No empty string nor letters (issue 48): a decimal parser reads '' as zero (sent) or fails on it as on
  // '1.2.3' (sent), and every check that refuses '1.2.3' (a pattern, Number, decimal.js) refuses 'abc'
  // by the same test, while a parseFloat takes '1.2.3' and not 'abc': two points is the sharper miss.
  [positiveDecimalString, [['an exponent', '1e3'], ['a negative amount', '-5'], ['zero', '0'], ['two points', '1.2.3']]],
  [maturityInput, MATURITY_MISSES],
  // Not a zero duration: as the book's "string filter" (part 4) `0d` is well formed, and a book may simply hold no such market.
  [durationString, MATURITY_MISSES.filter(([, v]) => v !== '0d')],
] as Array<[z.ZodType, Array<[string, string]>]>);

/** A case variant of an enum's first option that no option spells. */
function caseVariant(options: string[]): string | undefined {
  const first = options[0]!;
  const v = first === first.toLowerCase() ? first.toUpperCase() : first.toLowerCase();
  return options.includes(v) ? undefined : v;
}

/** An enum's edges: its neighbours, a case variant, an unknown value and the empty string. */
export function enumEdges(options: string[], profile: Profile): EdgeValue[] {
  const set = valueSetOf(options);
  const others = valueSets(profile).filter((v) => v.family === set?.family && v.name !== set.name);
  const out: EdgeValue[] = neighbours(options, profile).map((v) => ({ kind: 'neighbour', what: `${v} (valid elsewhere in the spec, not among ${options.join(', ')})`, value: v, sets: others.filter((o) => o.values.includes(v)).map((o) => o.name) }));
  const variant = caseVariant(options);
  if (variant) out.push({ kind: 'case', what: `${variant} (a case variant of ${options[0]})`, value: variant });
  out.push({ kind: 'unknown', what: `${options[0]}-unknown (a value no list of ${set?.name ?? 'the spec'} names)`, value: `${options[0]}-unknown` });
  out.push({ kind: 'empty', what: 'an empty string', value: '' });
  return out;
}

/** A bounded number's edges: each bound ±1 and the bound itself, the default ±1 and a non-integer between. */
export function boundEdges(b: { min?: number; max?: number }, rule?: RequestRule, profileMax?: number): EdgeValue[] {
  const out: EdgeValue[] = [];
  const at = (v: number, why: string) => out.push({ kind: 'bound', what: `${v} (${why})`, value: v });
  const around = (x: number, name: string) => [x - 1, x, x + 1].forEach((v) => at(v, `${name} ${x}${v === x ? '' : v < x ? ' − 1' : ' + 1'}`));
  if (b.min !== undefined) around(b.min, 'at the minimum');
  if (rule?.default !== undefined) around(rule.default, 'the default');
  const max = rule?.max ?? profileMax ?? b.max;
  if (max !== undefined) around(max, rule?.max !== undefined ? "the spec's maximum" : "the profile's maximum");
  if (b.min !== undefined) out.push({ kind: 'bound', what: `${b.min + 0.5} (not a whole number)`, value: b.min + 0.5 });
  const seen = new Set<unknown>();
  return out.filter((e) => !seen.has(e.value) && seen.add(e.value));
}

/** A field the contract constrains, where its cases come from, and the requirement it cites. */
export interface ConstrainedField {
  endpoint: string;
  where: 'body' | 'query';
  field: string;
  schema: z.ZodType;
  optional: boolean;
  rule?: RequestRule;
  /** The whole body or query schema the field sits in (a value is judged by it). */
  full: z.ZodType;
}

function bodyFields(e: Endpoint, s: z.ZodType, full: z.ZodType, prefix: string[] = []): ConstrainedField[] {
  const shape = (s as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return [];
  return Object.entries(shape).flatMap(([k, fs]) => {
    const field = [...prefix, k].join('.');
    const { inner, optional } = unwrap(fs);
    return [{ endpoint: e.id, where: 'body' as const, field, schema: inner, optional, rule: requestRule(e.id, 'body', field), full }, ...bodyFields(e, inner, full, [...prefix, k])];
  });
}

/** Whether a query parameter's schema constrains it beyond "a string": an enum, a number, a format. */
const constrainsQuery = (s: z.ZodType) => !!enumOf(s) || !!boundsOf(s) || NEAR_MISSES.has(s);

/**
 * Every request field (every body field: each has a type at least) and every constrained query
 * parameter of the profile's authenticated endpoints, with its rule row, if any.
 */
export function constrainedFields(profile: Profile): ConstrainedField[] {
  return endpoints(profile)
    .filter((e) => e.access === 'key')
    .flatMap((e) => {
      const q = (e.query as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
      const query = Object.entries(q).flatMap(([k, fs]) => {
        const { inner, optional } = unwrap(fs);
        return constrainsQuery(inner) ? [{ endpoint: e.id, where: 'query' as const, field: k, schema: inner, optional, rule: requestRule(e.id, 'query', k), full: e.query! }] : [];
      });
      return [...(e.body ? bodyFields(e, e.body, e.body) : []), ...query];
    });
}
