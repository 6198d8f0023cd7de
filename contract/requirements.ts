import { BINDINGS, type Binds } from './requirement-binds.ts';

// Every normative statement of the spec, with a stable id and the section it comes from.
// Checks cite these ids; reports show coverage requirement by requirement. Ids never
// change meaning: a reworded requirement keeps its id, a new one gets a new id. Each says what
// it binds and in the spec's own words (contract/requirement-binds.ts, issue 47).

export interface Requirement {
  id: string;
  section: string;
  /** The spec's own words (requirement-binds.ts `quote`); lendcheck's reading until it has one. */
  text: string;
  /** lendcheck's reading of it, in a line. */
  summary: string;
  /**
   * What it binds, and whether a check citing it may fail a target or only advise. Absent only
   * for a requirement not yet bound, which contract/requirement-binds.test.ts refuses.
   */
  binds?: Binds;
}

function r(id: string, section: string, summary: string): Requirement {
  const b = BINDINGS[id];
  return { id, section, text: b?.quote ?? summary, summary, ...(b ? { binds: b.binds } : {}) };
}

export const REQUIREMENTS: Requirement[] = [
  // Part 2: conventions and field rules
  r('CONV-amount-decimal', '2', 'Amounts are decimal strings.'),
  r('CONV-rate-fraction', '2', 'Rates are numbers expressed as fractions.'),
  r('CONV-timestamp-utc', '2', 'Timestamps in responses are ISO 8601 UTC strings.'),
  r('CONV-maturity-input', '2', 'maturity in a request is an ISO date or a duration <n>d.'),
  r('FIELD-lend-userId', '2', 'Lend request: userId is a required string.'),
  r('FIELD-lend-asset', '2', 'Lend request: asset is required, one of USDC, USDT, DAI.'),
  r('FIELD-lend-amount', '2', 'Lend request: amount is a required decimal string.'),
  r('FIELD-lend-rate', '2', 'Lend request: rate is an optional number.'),
  r('FIELD-lend-maturity', '2', 'Lend request: maturity is an optional ISO date or duration.'),
  r('FIELD-lend-mode', '2', 'Lend request: mode is easy or advanced, default easy.'),
  r('FIELD-lend-autoRollover', '2', 'Lend request: autoRollover is an optional boolean, default true in easy mode.'),
  r('FIELD-borrow-userId', '2', 'Borrow request: userId is a required string.'),
  r('FIELD-borrow-collateral', '2', 'Borrow request: collateral object with asset and amount is required.'),
  r('FIELD-borrow-borrowAsset', '2', 'Borrow request: borrowAsset is a required string.'),
  r('FIELD-borrow-borrowAmount', '2', 'Borrow request: borrowAmount is required.'),
  r('FIELD-borrow-rate', '2', 'Borrow request: rate is an optional maximum acceptable rate.'),
  r('FIELD-borrow-maturity', '2', 'Borrow request: maturity is an optional ISO date or duration.'),
  r('FIELD-borrow-autoRefinance', '2', 'Borrow request: autoRefinance is an optional boolean.'),
  r('SHAPE-position', '2', 'A single position carries positionId, status, type, userId, asset, amount, rate, maturity, cbt, projectedReturn, accruedInterest, createdAt.'),
  r('SHAPE-position-cbt', '2', 'cbt on single-position responses holds amount (decimal string) and tokenAddress.'),
  r('SHAPE-position-matchedAt', '2', 'matchedAt is present once a position is matched.'),
  r('SHAPE-create-lend', '2', 'The create-lend response carries the position fields without type.'),
  r('SHAPE-position-list', '2', 'The list response has positions (positionId, status, type, asset, amount, rate, maturity), nextCursor and hasMore.'),
  r('SHAPE-rates', '2', 'The rates response has rates[] of asset, maturity, lendRate, borrowRate, spread, and a timestamp.'),
  r('SHAPE-market', '2', 'A market has id, asset, maturity, lendRate, borrowRate, totalLent, totalBorrowed; the list is {markets}.'),
  r('SHAPE-orderbook', '2', 'The public order book is {lends, borrows}, each [{rate, amount}].'),
  r('SHAPE-error', '7', 'Errors are {error: {code, message, details?}}.'),

  // Part 3: states
  r('STATE-create-pending', '3', 'A newly created lend order is returned with status pending.'),
  r('STATE-matched-active', '3', 'A matched position carries matchedAt and has status active.'),
  r('STATE-cancel-unmatched', '3', 'Cancel applies to an unmatched order.'),
  r('STATE-status-values', '3', 'Status values named by the filter: pending, active, matured, cancelled.'),
  r('STATE-rate-may-differ', '2', 'A matched position\'s rate may differ from the requested rate.'),

  // Part 4: endpoints
  r('EP-lend', '4', 'POST /lend places a lend order.'),
  r('EP-borrow', '4', 'POST /borrow places a borrow order.'),
  r('EP-position-get', '4', 'GET /positions/{positionId} returns the full position.'),
  r('EP-positions-list', '4', 'GET /users/{userId}/positions lists positions with status, type, limit and cursor.'),
  r('EP-repay', '4', 'POST /positions/{positionId}/repay repays; the full amount when amount is omitted.'),
  r('EP-cancel', '4', 'POST /positions/{positionId}/cancel cancels.'),
  r('EP-patch', '4', 'PATCH /positions/{positionId} sets autoRollover and autoRefinance.'),
  r('EP-withdraw', '4', 'POST /users/{userId}/withdraw takes asset, amount and destination, all required.'),
  r('EP-rates', '4', 'An authenticated GET returns the rates response.'),
  r('EP-orderbook-auth', '4', 'GET /markets/{asset}/orderbook takes maturity and depth (default 10).'),
  r('EP-webhooks', '4', 'POST /webhooks takes url, events and secret.'),
  r('EP-public-markets', '4', 'GET /markets returns {markets} without a key.'),
  r('EP-public-orderbook', '4', 'GET /markets/{id}/orderbook returns {lends, borrows} without a key.'),
  r('EP-public-rates', '4', 'GET /markets/rates answers without a key.'),
  r('EP-public-analytics', '4', 'GET /analytics/tvl, /analytics/volume and /analytics/rates answer without a key.'),
  r('EP-public-vaults', '4', 'GET /vaults and /vaults/{id} answer without a key.'),
  r('EP-json', '4', 'Requests and responses are JSON (Content-Type: application/json).'),
  r('EP-version-path', '9', 'The version is carried in the base path /v1.'),
  r('PUB-envelope', '4', 'Public responses carry the payload under data with a timestamp, or bare where shown.'),

  // Part 5: auth
  r('AUTH-1', '5', 'Every authenticated request carries Authorization: Bearer <API_KEY>.'),
  r('AUTH-2', '5', 'Production keys start ck_live_, sandbox keys ck_test_.'),
  r('AUTH-4', '5', 'An invalid key fails with 401 authentication_failed.'),
  r('AUTH-5', '5', 'The public endpoints need no key.'),
  r('AUTH-isolation', '1', 'A partner acts for its own users only; another partner\'s positions are not visible.'),

  // Part 6: events
  r('HOOK-event-types', '6', 'Events are position.created, matched, matured, liquidated, rolled and withdrawal.completed.'),
  r('HOOK-envelope', '6', 'An event is {id, type, timestamp, data}.'),
  r('HOOK-matched-data', '6', 'position.matched data holds positionId, userId, rate, amount, maturity.'),
  r('HOOK-post', '6', 'Deliveries are HTTP POSTs to the subscribed url.'),
  r('HOOK-signature-header', '6', 'Each delivery carries x-service-signature.'),
  r('HOOK-verify-raw', '6', 'The receiver verifies the signature over the raw body with the subscription secret.'),
  r('HOOK-invalid-401', '6', 'A receiver answers 401 to an invalid signature.'),
  r('HOOK-answer-5s', '6', 'The receiver answers 200 within 5 seconds.'),
  r('HOOK-idempotent', '6', 'Receivers handle repeated deliveries idempotently by event id.'),
  r('HOOK-retry-count', '6', 'A failed delivery is retried up to five times.'),
  r('HOOK-retry-schedule', '6', 'Retries follow 1 min, 5 min, 30 min, 2 h, 24 h.'),
  r('HOOK-secret-prefix', '2', 'Signing secrets start whsec_.'),
  r('HOOK-subscription', '6', 'A subscription names url and events, and has a signing secret.'),

  // Part 7: errors
  r('ERR-invalid_request', '7', 'A malformed request gets 400 invalid_request.'),
  r('ERR-authentication_failed', '7', 'An invalid key gets 401 authentication_failed.'),
  r('ERR-insufficient_funds', '7', 'Not enough balance gets 400 insufficient_funds.'),
  r('ERR-insufficient_funds-details', '7', 'insufficient_funds details hold required and available as decimal strings.'),
  r('ERR-position_not_found', '7', 'An unknown position gets 404 position_not_found.'),
  r('ERR-rate_limit_exceeded', '7', 'Too many requests get 429 rate_limit_exceeded.'),
  r('ERR-internal_error', '7', 'A server error is 500 internal_error with the error body.'),
  r('ERR-public-429-body', '7', 'Public endpoints use the same error body for rate_limit_exceeded.'),

  // Part 8: limits
  r('LIMIT-tier-starter', '8', 'Starter: 60 requests per minute, burst 100.'),
  r('LIMIT-tier-growth', '8', 'Growth: 300 requests per minute, burst 500.'),
  r('LIMIT-tier-scale', '8', 'Scale: 1000 requests per minute, burst 2000.'),
  r('LIMIT-public', '8', 'Public endpoints without authentication: 60 requests per minute.'),
  r('LIMIT-429', '8', 'Exceeding a limit yields 429 rate_limit_exceeded.'),
  r('LIMIT-headers', '8', 'Responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.'),
  r('PAGE-limit-default', '8', 'The list limit defaults to 20.'),
  r('PAGE-limit-max', '8', 'The list limit is at most 100.'),
  r('PAGE-cursor', '2', 'nextCursor leads to the next page.'),
  r('PAGE-hasMore', '2', 'hasMore is true when further pages exist.'),
  r('PAGE-filters', '4', 'The list honours the status and type filters.'),
  r('BOOK-depth-default', '8', 'Order book depth defaults to 10.'),
  // Query parameters of part 4, each a rule a request can break and a parameter a service must apply (issue 51).
  r('QUERY-list-status', '4', 'GET /users/{userId}/positions query `status` (pending, active, matured, cancelled).'),
  r('QUERY-list-type', '4', 'GET /users/{userId}/positions query `type` (lend, borrow).'),
  r('PAGE-limit-applied', '4', 'GET /users/{userId}/positions query `limit` (number, default 20, max 100): a page holds at most `limit` positions.'),
  r('BOOK-depth', '4', 'GET /markets/{asset}/orderbook query `depth` number (default 10): the book holds at most `depth` levels a side.'),
  r('BOOK-maturity-filter', '4', 'GET /markets/{asset}/orderbook query `maturity` string filter.'),
  // Overlapping requests: what a serial run of the same requests allows (part 7's
  // insufficient_funds, part 3's transitions, part 1's partners), kept when they overlap.
  r('CONC-no-overcommit', '7', 'Overlapping orders and withdrawals that together exceed a user\'s funds are not all accepted; the rest get insufficient_funds.'),
  r('CONC-one-transition', '3', 'Overlapping cancels or full repays of one position: exactly one succeeds, with one refund or one debit.'),
  r('CONC-conservation', '7', 'A user\'s funds are the funds before, less accepted debits, plus accepted refunds, and never negative.'),
  r('CONC-isolation', '1', 'Overlapping requests of two partners for the same userId never see or change each other\'s state.'),
  r('CONC-page-under-writes', '2', 'A list walked with cursors while positions are placed shows every earlier position exactly once.'),
  r('CONC-patch-no-lost-update', '4', 'Overlapping PATCHes of different flags of one position all persist.'),
  r('CONC-match-no-overfill', '3', 'Matching never fills more than the resting order offered; both sides\' fills agree.'),
  r('CONC-read-after-write', '2', 'An acknowledged write is what a later read shows (profile consistency.readAfterWrite).'),

  // Money under concurrency and over sequences (issue 24): what any ledger must keep, though
  // the spec states it only through insufficient_funds and "cancel applies to an unmatched order".
  r('LEDGER-linearizable', '1', 'Overlapping requests on one user take effect as if one at a time, in an order consistent with real time: no overdraft, one refund per cancel, an acknowledged write seen by later reads.'),
  r('LEDGER-model', '1', 'Every sequence of lends, borrows, cancels, repays, withdrawals and PATCHes moves exactly the amounts it names, to the last unit of the asset, interest included.'),
  r('LEDGER-conserved', '1', 'Whatever ran before, overlapping or under load, every user\'s funds are conserved and never negative, and every acknowledged order is listed exactly once.'),
];

export const REQUIREMENT_IDS = new Set(REQUIREMENTS.map((q) => q.id));

export function requirement(id: string): Requirement {
  const q = REQUIREMENTS.find((x) => x.id === id);
  if (!q) throw new Error(`unknown requirement id ${id}`);
  return q;
}
