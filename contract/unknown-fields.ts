import { z } from 'zod';

// The first field of a request body that its schema does not list (dotted path), for the
// profile's requests.unknownFields policy: the sandbox refuses it under `reject`, naming it.
// Walks the zod schema itself (objects, and the wrappers a field may carry), so the list of
// known fields is the contract's and nowhere else.

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional/default/nullable/pipe wrappers. */
function unwrap(s: z.ZodType): z.ZodType {
  for (let i = 0; i < 10; i++) {
    const d = defOf(s);
    const next = d.innerType ?? (d.type === 'pipe' ? d.in : undefined);
    if (!next) return s;
    s = next;
  }
  return s;
}

export function unknownField(schema: z.ZodType, value: unknown, at: string[] = []): string | undefined {
  const s = unwrap(schema);
  if (!(s instanceof z.ZodObject) || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const shape = s.shape as Record<string, z.ZodType>;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    // Own keys only: "__proto__", "constructor" or "toString" in a body are unknown fields, not Object.prototype's.
    if (!Object.hasOwn(shape, k)) return [...at, k].join('.');
    const inner = unknownField(shape[k]!, v, [...at, k]);
    if (inner) return inner;
  }
  return undefined;
}
