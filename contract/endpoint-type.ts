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

/**
 * The ids of the partner endpoints a client calls with ids in its path or body (spec part 4),
 * as a type: what lendcheck's recorded operations name (conformance/concurrency/storm.ts), so
 * an operation is known by its endpoint when it is made, never read back from its URL.
 */
export type EndpointId = 'lend.create' | 'borrow.create' | 'position.get' | 'positions.list' | 'position.repay' | 'position.cancel' | 'position.patch' | 'user.withdraw';
