import type { Profile } from '../contract/index.ts';
import { boundEdges, boundsOf, constrainedFields, enumEdges, enumOf, NEAR_MISSES, type CaseKind, type ConstrainedField } from './field-rules.ts';

// Query-string cases of every constrained query parameter (field-rules.ts), each with what the
// spec lets a service answer:
//   invalid   the contract refuses the value: 400 invalid_request (part 7 "Malformed request");
//   blank     an empty value: refused as malformed, or read as the parameter left out;
//   over-max  past a maximum (part 8's, or the profile's where the spec gives none): what it
//             gets is the profile's (the rule's overMax option);
//   no-match  a value a "string filter" cannot match: refused as malformed, or an empty answer;
//   valid     an edge the contract takes, for the checks that see it applied (depth, limit).

export type QueryExpect = 'invalid' | 'blank' | 'over-max' | 'no-match' | 'valid';

export interface QueryCase {
  endpoint: string;
  field: string;
  kind: CaseKind;
  what: string;
  value: string;
  expect: QueryExpect;
  requirements: string[];
  /** For an enum neighbour: the value sets it is valid in (one neighbour a set is sent: sent-values.ts). */
  sets?: string[];
}

function classify(f: ConstrainedField, value: string): QueryExpect {
  if (value === '') return 'blank';
  const n = Number(value);
  const max = f.rule?.max ?? boundsOf(f.schema)?.max;
  if (f.rule?.overMax && max !== undefined && Number.isInteger(n) && n > max) return 'over-max';
  if (f.full.safeParse({ [f.field]: value }).success) return 'valid';
  return f.rule?.filter ? 'no-match' : 'invalid';
}

/** The cases of one constrained query parameter. */
export function fieldQueryCases(f: ConstrainedField, profile: Profile): QueryCase[] {
  const e = enumOf(f.schema);
  const b = boundsOf(f.schema);
  const edges = [
    ...(e ? enumEdges(e.options, profile) : []),
    ...(b ? [...boundEdges(b, f.rule), { kind: 'type' as const, what: 'not a number', value: 'abc' }] : []),
    ...(NEAR_MISSES.get(f.schema) ?? []).map(([what, value]) => ({ kind: 'format' as const, what, value })),
  ];
  return edges.map((x) => {
    const value = String(x.value);
    const sets = 'sets' in x && x.sets?.length ? { sets: x.sets } : {};
    return { endpoint: f.endpoint, field: f.field, kind: x.kind, what: `${f.field}=${value === '' ? '(empty)' : value}: ${x.what}`, value, expect: classify(f, value), requirements: f.rule?.requirements ?? [], ...sets };
  });
}

/** Every query case of the profile's authenticated endpoints. */
export function queryCases(profile: Profile): QueryCase[] {
  return constrainedFields(profile)
    .filter((f) => f.where === 'query')
    .flatMap((f) => fieldQueryCases(f, profile));
}
