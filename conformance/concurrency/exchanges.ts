// The record of one storm: every HTTP exchange with its invoke and complete times. The storm
// checks (conformance/concurrency/checks) record these and draw them (timeline.ts); the
// linearizability checker reads operations in a model's words instead, which an adapter
// makes of these (linearize/ledger/adapter.ts). Times are performance.now() milliseconds of
// the recording process, so only their order matters.

export interface OpRequest {
  method: string;
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
  /** What the request does, in a word the adapter reads: 'withdraw', 'lend', 'cancel', 'read', … */
  kind: string;
  invoke: number;
  /** Undefined while in flight or when the request failed without an answer (timeout). */
  complete?: number;
  request: OpRequest;
  response?: OpResponse;
}

export type Exchanges = TimedExchange[];
