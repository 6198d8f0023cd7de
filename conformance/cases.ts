import type { z } from 'zod';

// Invalid variants of a valid body, derived from its zod schema: each required field
// missing, each field given the wrong JSON type, and the field's own bad values. Every
// variant is confirmed invalid by the same schema before it is used, so a case can never
// blame a service for refusing (or accepting) something the contract allows.

export interface BodyCase {
  /** Dotted path of the field the case breaks, e.g. `collateral.amount`. */
  field: string;
  what: string;
  body: unknown;
}

type Shape = Record<string, z.ZodType>;

const shapeOf = (s: z.ZodType): Shape | undefined => (s as unknown as { shape?: Shape }).shape;

/** Bad values by field name, for rules a type swap alone does not reach. */
export const BAD_VALUES: Record<string, Array<[string, unknown]>> = {
  amount: [['an exponent', '1e3'], ['a negative amount', '-5'], ['letters', 'abc'], ['zero', '0'], ['two points', '1.2.3'], ['an empty string', '']],
  borrowAmount: [['an exponent', '1e3'], ['a negative amount', '-5'], ['zero', '0']],
  asset: [['an unknown asset', 'BTCX'], ['lower case', 'usdc']],
  rate: [['a percent instead of a fraction', 8], ['a negative rate', -0.1], ['a numeric string', '0.05']],
  maturity: [['a bare number', '30'], ['a spelled-out duration', '30days'], ['an impossible date', '2026-13-45'], ['a word', 'tomorrow'], ['a zero duration', '0d']],
  mode: [['an unknown mode', 'expert'], ['upper case', 'EASY']],
  events: [['an unknown event type', ['position.exploded']], ['an empty list', []]],
  url: [['a relative url', '/hook'], ['not a url', 'not a url']],
  secret: [['a secret without the whsec_ prefix', 'sk_0123456789abcdef0123']],
  userId: [['an empty string', '']],
  destination: [['an empty string', '']],
};

const WRONG_TYPES: Array<[string, unknown]> = [
  ['a number', 12345],
  ['a boolean', true],
  ['null', null],
  ['an object', { x: 1 }],
  ['an array', ['x']],
  ['a string', 'x'],
];

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

export function bodyCases(schema: z.ZodType, valid: Record<string, unknown>, prefix: string[] = [], root: Record<string, unknown> = valid, rootSchema: z.ZodType = schema): BodyCase[] {
  const shape = shapeOf(schema);
  if (!shape) return [];
  const out: BodyCase[] = [];
  const keep = (c: BodyCase) => {
    if (!rootSchema.safeParse(c.body).success) out.push(c);
  };
  for (const [key, fieldSchema] of Object.entries(shape)) {
    const path = [...prefix, key];
    const field = path.join('.');
    const current = (path.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], root));
    keep({ field, what: `${field} missing`, body: setPath(root, path, undefined, true) });
    const seen = typeName(current);
    for (const [label, v] of WRONG_TYPES) {
      if (typeName(v) === seen || (current === undefined && label !== 'a number')) continue;
      keep({ field, what: `${field} as ${label}`, body: setPath(root, path, v) });
    }
    for (const [label, v] of BAD_VALUES[key] ?? []) keep({ field, what: `${field} as ${label}`, body: setPath(root, path, v) });
    if (shapeOf(fieldSchema) && current && typeof current === 'object') out.push(...bodyCases(fieldSchema, current as Record<string, unknown>, path, root, rootSchema));
  }
  return out;
}
