import type { z } from 'zod';

// One row of the endpoint table, apart from the table (endpoints.ts), which imports the
// sandbox controls' rows (sandbox-controls.ts), which are rows of this type too.

export type Access = 'key' | 'public' | 'sandbox';
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Endpoint {
  /** Stable id, used by routes, checks and reports. */
  id: string;
  method: Method;
  /** Path under /v1, with `{name}` parameters. */
  path: string;
  access: Access;
  summary: string;
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Schema of the success body, before any public envelope. */
  response: z.ZodType;
  /** `spec` when the spec shows the body, `profile` when lendcheck-v1 chose it. */
  responseSource: 'spec' | 'profile';
  /** Requirement ids this endpoint's existence and shape satisfy. */
  requirements: string[];
}
