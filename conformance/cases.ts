import type { z } from 'zod';
import { requestRule, type Profile } from '../contract/index.ts';
import { boundEdges, boundsOf, enumEdges, enumOf, NEAR_MISSES, unwrap, type CaseKind, type EdgeValue } from './field-rules.ts';

// Invalid variants of a valid body, derived from its zod schema (field-rules.ts): each field
// missing, each field given the wrong JSON type, each enum's neighbours (values valid
// elsewhere in the spec), case variant, unknown value and empty string, each bound just
// outside, each format's near misses, and the field's own bad values. Every variant is
// confirmed invalid by the same schema before it is used, so a case can never blame a service
// for refusing (or accepting) something the contract allows.

export interface BodyCase {
  /** Dotted path of the field the case breaks, e.g. `collateral.amount`. */
  field: string;
  what: string;
  body: unknown;
  kind?: CaseKind;
  /** The requirement ids the broken rule comes from (contract/request-rules.ts), when the endpoint is known. */
  requirements?: string[];
  /** For an enum neighbour: the value sets it is valid in (one neighbour a set is sent: sent-values.ts). */
  sets?: string[];
}

type Shape = Record<string, z.ZodType>;

const shapeOf = (s: z.ZodType): Shape | undefined => (s as unknown as { shape?: Shape }).shape;

/**
 * Bad values by field name, for rules neither a type swap nor the schema's enums, bounds and
 * formats reach. A value of another JSON type than the field's is the field's wrong-type case
 * (a numeric string for a rate: the sharpest string, one a lenient parser reads as a number).
 * Left out as the same case as one kept (issue 48): a url that is no url at all (every URL
 * check that refuses a relative url refuses it by the same parse), and the empty string for a
 * string that is no enum (userId, destination: part 2 binds no length; the destination's
 * pattern misses and its absence are sent).
 */
export const BAD_VALUES: Record<string, Array<[string, unknown]>> = {
  rate: [['a percent instead of a fraction', 8], ['a numeric string', '0.05']],
  events: [['an empty list', []]],
  url: [['a relative url', '/hook']],
  secret: [['a secret without the whsec_ prefix', 'sk_0123456789abcdef0123']],
};

const WRONG_TYPES: Array<[string, unknown]> = [
  ['a number', 12345],
  ['null', null],
  ['a string', 'x'],
];

/**
 * The wrong types a field is given: null where the field is required (issue 51 lists absent,
 * null and a wrong type for required fields; an optional one may fairly read null as not
 * given), and the one type a client most often confuses with the field's own (a number for a
 * string, a string for anything else), or the field's own bad value of another type where it
 * has one (BAD_VALUES). A service that checks a field's type refuses all four others alike;
 * sending each of them spent about 90 requests a run that no fault nor mutant needed (issue 48).
 */
function wrongTypes(seen: string, key: string, optional: boolean): Array<[string, unknown]> {
  const other = seen === 'string' ? 'a number' : 'a string';
  const own = (BAD_VALUES[key] ?? []).find(([, v]) => v !== null && typeName(v) !== seen);
  return [
    ...WRONG_TYPES.filter(([label, v]) => (label === 'null' && !optional) || (!own && label === other && typeName(v) !== seen)),
    ...(own ? [own] : []),
  ];
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function setPath(body: Record<string, unknown>, path: string[], value: unknown, remove = false): Record<string, unknown> {
  const copy = structuredClone(body);
  let o: Record<string, unknown> = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  const last = path[path.length - 1];
  if (remove) delete o[last];
  else o[last] = value;
  return copy;
}

/** The edge values the field's schema derives: enum, bound (outside it) and format. */
export function schemaEdges(schema: z.ZodType, profile?: Profile): EdgeValue[] {
  const e = enumOf(schema);
  const b = boundsOf(schema);
  const out: EdgeValue[] = [];
  if (e && profile) out.push(...enumEdges(e.options, profile).map((x) => (e.inArray ? { ...x, value: [x.value] } : x)));
  if (b) out.push(...boundEdges(b).filter((x) => typeof x.value === 'number' && ((b.min !== undefined && x.value < b.min) || (b.max !== undefined && x.value > b.max))));
  for (const [what, value] of NEAR_MISSES.get(schema) ?? []) out.push({ kind: 'format', what, value });
  return out;
}

export interface BodyCaseOptions {
  /** The profile: an enum's neighbours include the asset lists it records. Without it, no enum edges. */
  profile?: Profile;
  /** The endpoint id: each case cites its field's requirements (contract/request-rules.ts). */
  endpoint?: string;
}

export function bodyCases(schema: z.ZodType, valid: Record<string, unknown>, o: BodyCaseOptions = {}): BodyCase[] {
  const out: BodyCase[] = [];
  const walk = (s: z.ZodType, prefix: string[]) => {
    const shape = shapeOf(s);
    if (!shape) return;
    for (const [key, fieldSchema] of Object.entries(shape)) {
      const path = [...prefix, key];
      const field = path.join('.');
      const requirements = o.endpoint ? requestRule(o.endpoint, 'body', field)?.requirements : undefined;
      const keep = (kind: CaseKind, what: string, body: unknown, sets?: string[]) => {
        if (!schema.safeParse(body).success && !out.some((c) => c.field === field && JSON.stringify(c.body) === JSON.stringify(body))) {
          out.push({ field, what: `${field} as ${what}`, body, kind, ...(requirements ? { requirements } : {}), ...(sets?.length ? { sets } : {}) });
        }
      };
      const current = path.reduce<unknown>((x, k) => (x as Record<string, unknown> | undefined)?.[k], valid);
      if (!schema.safeParse(setPath(valid, path, undefined, true)).success) out.push({ field, what: `${field} missing`, body: setPath(valid, path, undefined, true), kind: 'missing', ...(requirements ? { requirements } : {}) });
      const seen = typeName(current);
      const { inner, optional } = unwrap(fieldSchema);
      for (const [label, v] of current === undefined ? WRONG_TYPES : wrongTypes(seen, key, optional)) {
        if (typeName(v) === seen || (current === undefined && label !== 'a number')) continue;
        keep('type', label, setPath(valid, path, v));
      }
      for (const x of schemaEdges(inner, o.profile)) keep(x.kind, x.what, setPath(valid, path, x.value), x.sets);
      for (const [label, v] of BAD_VALUES[key] ?? []) keep('value', label, setPath(valid, path, v));
      if (shapeOf(inner) && current && typeof current === 'object') walk(inner, path);
    }
  };
  walk(schema, []);
  return out;
}
