import type { EndpointId } from '../../contract/index.ts';

// The record of one storm: every HTTP exchange with its invoke and complete times. The storm
// checks (conformance/concurrency/checks) record these and draw them (timeline.ts); the
// linearizability checker reads operations in a model's words instead, which an adapter
// makes of these (linearize/ledger/adapter.ts). Times are performance.now() milliseconds of
// the recording process, so only their order matters. As Porcupine's clients record their
// Input when they make the call, each exchange records what was called (the contract's
// endpoint id) and the ids it named when the call was made: nothing is parsed back from a URL.

/** The ids a call names in its path (its user, its position), as the caller gave them. */
export interface OpIds {
  userId?: string;
  positionId?: string;
}

export interface OpRequest {
  method: string;
  /** The ids the path was built from. */
  ids: OpIds;
  /** Path under the base URL, with its query string. */
  path: string;
  body?: unknown;
  /** Which partner key made the call: 1 (LENDCHECK_API_KEY) or 2 (LENDCHECK_API_KEY_2). */
  partner: 1 | 2;
}

export interface OpResponse {
  status: number;
  /** Parsed JSON body, or undefined. */
  json: unknown;
}

export interface TimedExchange {
  /** Index in the storm's record, stable for reports. */
  id: number;
  /** The logical client (one concurrent caller of the storm). */
  client: number;
  /** What was called: the contract's endpoint id. */
  kind: EndpointId;
  invoke: number;
  /** Undefined while in flight or when the request failed without an answer (timeout). */
  complete?: number;
  request: OpRequest;
  response?: OpResponse;
}

export type Exchanges = TimedExchange[];
