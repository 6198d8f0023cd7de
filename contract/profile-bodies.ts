import { z } from 'zod';
import { doc } from './profile-doc.ts';

// The field names of the response bodies the spec leaves "not shown" (part 2 "Other records",
// part 4 "Response body: not shown"). Part of the profile (contract/profile.ts); kept here so
// that file stays about the other choices. The sandbox answers with lendcheck-v1's names
// (contract/shapes.ts) and renames them by this option as the body leaves, so the one engine
// can play any implementation whose bodies differ only in names.

/** The endpoints whose success body the spec does not show: the only ones a rename may touch. */
export const RENAMABLE_BODIES = [
  'POST /borrow',
  'POST /positions/{positionId}/repay',
  'POST /positions/{positionId}/cancel',
  'PATCH /positions/{positionId}',
  'POST /users/{userId}/withdraw',
  'GET /markets/{asset}/orderbook',
  'POST /webhooks',
  'GET /webhooks',
  'DELETE /webhooks/{webhookId}',
  'GET /markets/rates',
  'GET /analytics/tvl',
  'GET /analytics/volume',
  'GET /analytics/rates',
  'GET /vaults',
  'GET /vaults/{id}',
] as const;

const renames = z.record(z.string().min(1), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).refine((m) => new Set(Object.values(m)).size === Object.values(m).length, 'two fields renamed to one name');

export const bodiesOptions = z
  .object({
    fieldNames: doc(
      z.partialRecord(z.enum(RENAMABLE_BODIES), renames).default({}),
      {
        spec: 'Part 2: "Other records: fields of the borrow-position response, repay result, withdrawal record, vault, analytics series and webhook registration result: not shown"; part 4: "Response body: not shown".',
        reason: 'Empty: lendcheck-v1\'s names (contract/shapes.ts). Per endpoint, {lendcheck-v1 name: the target\'s name}, applied to every object key of the body at any depth (the public {data, timestamp} wrapper excepted); for a sandbox that plays another implementation (`sandbox --choices random`).',
      },
    ),
  })
  .prefault({});

export type FieldNames = Partial<Record<(typeof RENAMABLE_BODIES)[number], Record<string, string>>>;

/** A body with its keys renamed at every depth; the input is not changed. */
export function renameFields(body: unknown, names: Record<string, string> | undefined): unknown {
  if (!names || Object.keys(names).length === 0) return body;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [names[k] ?? k, walk(x)]));
  };
  return walk(body);
}
