import type { z } from 'zod';
import type { Access, Method } from './routes.ts';

// One row of the endpoint table, apart from the table (endpoints.ts), which imports the
// sandbox controls' rows (sandbox-controls.ts), which are rows of this type too.

// Access and Method live with the zod-free route list (routes.ts), which the k6 scenarios load.
export type { Access, Method };

/** The kinds of object a partner owns (part 1: a partner acts for its own users). */
export type OwnedObject = 'position' | 'user' | 'webhook' | 'event';

/**
 * What an endpoint does to an object a partner owns, as data: the authorization matrix
 * (conformance/authz/) calls every endpoint that carries it with the other partner's key.
 */
export interface Ownership {
  object: OwnedObject;
  /** The path parameter or body field that names the object; absent: the partner's whole collection (a list). */
  param?: string;
  /** read: shows it; list: shows the partner's set; change: moves or alters it; create: makes one for a named owner. */
  verb: 'read' | 'list' | 'change' | 'create';
}

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
  /**
   * The partner-owned object it names, lists or changes; `false`: none (market data). Every
   * authenticated row states it (contract/endpoints.test.ts), so a new one cannot be left out.
   */
  owns?: Ownership | false;
}

/**
 * The ids of the partner endpoints a client calls with ids in its path or body (spec part 4),
 * as a type: what lendcheck's recorded operations name (conformance/concurrency/storm.ts), so
 * an operation is known by its endpoint when it is made, never read back from its URL.
 */
export type EndpointId = 'lend.create' | 'borrow.create' | 'position.get' | 'positions.list' | 'position.repay' | 'position.cancel' | 'position.patch' | 'user.withdraw';
