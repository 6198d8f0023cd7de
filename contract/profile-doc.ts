import type { z } from 'zod';

// Each profile option carries the spec text it answers and the reason for its default, as
// zod metadata: `lendcheck profile --explain` and the OpenAPI export read it from there.

export type Doc = { spec: string; reason: string };
export const doc = <T extends z.ZodType>(schema: T, d: Doc): T => schema.meta({ description: d.spec, reason: d.reason });
