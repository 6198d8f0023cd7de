// What each requirement binds (issue 47): the spec's own words, and exactly which endpoints'
// requests or answers (ids of contract/endpoints.ts), which part 2 resources and fields, or what
// beyond an endpoint's body (the deliveries a target sends, the webhook receiver, the ledger
// across requests) the sentence speaks of; and whether a check citing it may FAIL a target or
// only ADVISE. A check may fail a target only through a requirement that binds the endpoint it
// judges (conformance/requirement-binding.ts and its test). docs/requirements.md is generated
// from this table (conformance/requirements-doc.ts).

/** An endpoint id of contract/endpoints.ts, or every endpoint (of one access). */
export type EndpointRef = string;
/** What a sentence binds that is not one endpoint's request or answer. */
export type Beyond = 'deliveries' | 'receiver' | 'ledger';
/** Part 2's resources (and part 6's and 7's bodies): a field's type binds these only. */
export type Resource = 'position' | 'create-lend' | 'list-item' | 'position-list' | 'rate-entry' | 'rates' | 'market' | 'orderbook-level' | 'subscription' | 'event-envelope' | 'matched-data' | 'error-object' | 'public-wrapper' | 'lend-request' | 'borrow-request';

export interface Binds {
  /** Endpoints whose answers the sentence speaks of. */
  response?: readonly EndpointRef[];
  /** Endpoints whose requests (what they accept or refuse) the sentence speaks of. */
  request?: readonly EndpointRef[];
  beyond?: readonly Beyond[];
  resources?: readonly Resource[];
  /** The fields it names, where it names some. */
  fields?: readonly string[];
  /** fail: a check citing it may fail a target on what it binds. advise: it permits, or lendcheck only believes it: never a failure but under --strict. */
  enforce: 'fail' | 'advise';
}

export interface Binding {
  /** The spec's own words: fragments, each verbatim (joined by " … "). */
  quote: string;
  binds: Binds;
}

export const EVERY = 'every';
export const EVERY_KEY = 'every-key';
export const EVERY_PUBLIC = 'every-public';

/** Shown answers that carry amounts, rates or timestamps: the resources part 2 types. */
const SHOWN = ['lend.create', 'position.get', 'positions.list', 'rates.get', 'public.markets', 'public.orderbook'];
const fail = (quote: string, binds: Omit<Binds, 'enforce'>): Binding => ({ quote, binds: { ...binds, enforce: 'fail' } });
const advise = (quote: string, binds: Omit<Binds, 'enforce'>): Binding => ({ quote, binds: { ...binds, enforce: 'advise' } });
const lendField = (f: string, quote: string) => fail(quote, { request: ['lend.create'], resources: ['lend-request'], fields: [f] });
const borrowField = (f: string, quote: string) => fail(quote, { request: ['borrow.create'], resources: ['borrow-request'], fields: [f] });

export const BINDINGS: Record<string, Binding> = {
  'CONV-amount-decimal': fail('Conventions: amounts are decimal strings.', { response: SHOWN, request: ['lend.create', 'borrow.create', 'position.repay', 'user.withdraw'], beyond: ['deliveries'], resources: ['position', 'create-lend', 'list-item', 'market', 'orderbook-level', 'matched-data', 'error-object'], fields: ['amount', 'totalLent', 'totalBorrowed', 'projectedReturn', 'accruedInterest', 'required', 'available'] }),
  'CONV-rate-fraction': fail('Rates are numbers expressed as fractions (0.08 means 8%).', { response: SHOWN, request: ['lend.create', 'borrow.create'], beyond: ['deliveries'], resources: ['position', 'create-lend', 'list-item', 'rate-entry', 'market', 'orderbook-level', 'matched-data'], fields: ['rate', 'lendRate', 'borrowRate'] }),
  'CONV-timestamp-utc': fail('Timestamps in responses are ISO 8601 UTC strings.', { response: SHOWN, beyond: ['deliveries'], resources: ['position', 'create-lend', 'rates', 'event-envelope', 'matched-data'], fields: ['createdAt', 'matchedAt', 'maturity', 'timestamp'] }),
  'CONV-maturity-input': fail('`maturity` in a request is either an ISO date or a duration of the form `<n>d`.', { request: ['lend.create', 'borrow.create'], resources: ['lend-request', 'borrow-request'], fields: ['maturity'] }),
  'FIELD-lend-userId': lendField('userId', "| userId | string | yes | Partner's internal user identifier |"),
  'FIELD-lend-asset': lendField('asset', '| asset | string | yes | One of USDC, USDT, DAI |'),
  'FIELD-lend-amount': lendField('amount', '| amount | string | yes | Decimal string |'),
  'FIELD-lend-rate': lendField('rate', '| rate | number | no | Desired fixed rate |'),
  'FIELD-lend-maturity': lendField('maturity', '| maturity | string | no | ISO date or duration |'),
  'FIELD-lend-mode': lendField('mode', '| mode | string | no | `easy` or `advanced`; default `easy` |'),
  'FIELD-lend-autoRollover': fail('| autoRollover | boolean | no | Default true in easy mode; default in advanced mode: not shown |', { request: ['lend.create', 'position.patch'], response: ['lend.create', 'position.get'], resources: ['lend-request', 'position'], fields: ['autoRollover'] }),
  'FIELD-borrow-userId': borrowField('userId', "| userId | string | yes | Partner's internal user identifier |"),
  'FIELD-borrow-collateral': fail('| collateral | object | yes | Collateral details |', { request: ['borrow.create'], resources: ['borrow-request'], fields: ['collateral', 'collateral.asset', 'collateral.amount'] }),
  'FIELD-borrow-borrowAsset': borrowField('borrowAsset', '| borrowAsset | string | yes | Asset to borrow |'),
  'FIELD-borrow-borrowAmount': borrowField('borrowAmount', '| borrowAmount | string | yes | Amount to borrow |'),
  'FIELD-borrow-rate': borrowField('rate', '| rate | number | no | Maximum acceptable rate |'),
  'FIELD-borrow-maturity': borrowField('maturity', '| maturity | string | no | ISO date or duration |'),
  'FIELD-borrow-autoRefinance': fail('| autoRefinance | boolean | no | Enables auto-refinance; default: not shown | … | autoRefinance | boolean | Settable through PATCH on a position |', { request: ['borrow.create', 'position.patch'], resources: ['borrow-request', 'position'], fields: ['autoRefinance'] }),
  'SHAPE-position': fail('| GET | /positions/{positionId} | none | Full position (part 2) |', { response: ['position.get'], resources: ['position'], fields: ['positionId', 'status', 'type', 'userId', 'asset', 'amount', 'rate', 'maturity', 'cbt', 'projectedReturn', 'accruedInterest', 'autoRollover', 'autoRefinance', 'createdAt', 'matchedAt'] }),
  'SHAPE-position-cbt': fail('On single-position responses: `amount` (decimal string) and `tokenAddress` (string, an on-chain address).', { response: ['position.get'], resources: ['position'], fields: ['cbt.amount', 'cbt.tokenAddress'] }),
  'SHAPE-position-matchedAt': fail('| matchedAt | string | ISO 8601 UTC timestamp; present once matched |', { response: ['position.get', 'positions.list'], resources: ['position'], fields: ['matchedAt'] }),
  'SHAPE-create-lend': fail('| POST | /lend | Lend order request body | Position fields: positionId, status (`pending` on creation), userId, asset, amount, rate, maturity, autoRollover, createdAt |', { response: ['lend.create'], resources: ['create-lend'], fields: ['positionId', 'status', 'userId', 'asset', 'amount', 'rate', 'maturity', 'autoRollover', 'createdAt', 'type'] }),
  'SHAPE-position-list': fail('| positions | array | Each item: positionId, status, type, asset, amount, rate, maturity | … | nextCursor | string | Cursor for the next page | … | hasMore | boolean | True when further pages exist |', { response: ['positions.list'], resources: ['position-list', 'list-item'], fields: ['positions', 'nextCursor', 'hasMore'] }),
  'SHAPE-rates': fail('| rates | array of entries | … | rates[].asset | string | … | rates[].lendRate | number | … | rates[].borrowRate | number | … | rates[].spread | number | … | timestamp | string, ISO 8601 UTC |', { response: ['rates.get'], resources: ['rates', 'rate-entry'], fields: ['rates', 'asset', 'maturity', 'lendRate', 'borrowRate', 'spread', 'timestamp'] }),
  'SHAPE-market': fail('| id | string (market identifier, composed of asset and maturity) | … | totalLent | string, decimal | … | totalBorrowed | string, decimal | … The list response is an object with a `markets` array of these.', { response: ['public.markets'], resources: ['market'], fields: ['markets', 'id', 'asset', 'maturity', 'lendRate', 'borrowRate', 'totalLent', 'totalBorrowed'] }),
  'SHAPE-orderbook': fail('Object with `lends` and `borrows`, each an array of `{rate: number, amount: string}`.', { response: ['public.orderbook'], resources: ['orderbook-level'], fields: ['lends', 'borrows', 'rate', 'amount'] }),
  'SHAPE-error': fail('| error.code | string | One of the codes below | … | error.message | string | Human-readable text | … | error.details | object | Optional;', { response: [EVERY], resources: ['error-object'], fields: ['error.code', 'error.message', 'error.details'] }),

  'STATE-create-pending': fail('A newly created lend order is returned with status `pending`.', { response: ['lend.create', 'position.get', 'positions.list'], resources: ['create-lend', 'position'], fields: ['status'] }),
  'STATE-matched-active': fail('A position that has been matched carries `matchedAt` and appears with status `active`.', { response: ['position.get', 'positions.list'], beyond: ['ledger'], resources: ['position'], fields: ['status', 'matchedAt'] }),
  'STATE-cancel-unmatched': fail('Cancel applies to an unmatched order.', { request: ['position.cancel'], response: ['position.cancel', 'position.get'], beyond: ['ledger'], fields: ['status'] }),
  'STATE-status-values': fail('Position `status` values named by the list filter: `pending`, `active`, `matured`, `cancelled`.', { request: ['positions.list'], response: ['position.get', 'positions.list'], resources: ['position', 'list-item'], fields: ['status'] }),
  'STATE-rate-may-differ': advise('| rate | number | Fixed rate; may differ from the requested rate once matched |', { response: ['position.get', 'positions.list'], resources: ['position'], fields: ['rate'] }),

  'EP-lend': fail('| POST | /lend | Lend order request body |', { request: ['lend.create'], response: ['lend.create'] }),
  'EP-borrow': fail('| POST | /borrow | Borrow order request body | Response body: not shown |', { request: ['borrow.create'], response: ['borrow.create'] }),
  'EP-position-get': fail('| GET | /positions/{positionId} | none | Full position (part 2) |', { request: ['position.get'], response: ['position.get'] }),
  'EP-positions-list': fail('| GET | /users/{userId}/positions | Query: `status` (pending, active, matured, cancelled), `type` (lend, borrow), `limit` (number, default 20, max 100), `cursor` (string) | Position list response |', { request: ['positions.list'], response: ['positions.list'] }),
  'EP-repay': fail('| POST | /positions/{positionId}/repay | Body: `amount` string, optional; the full amount is repaid when omitted | Response body: not shown |', { request: ['position.repay'], response: ['position.repay'], beyond: ['ledger'], fields: ['amount'] }),
  'EP-cancel': fail('| POST | /positions/{positionId}/cancel | No body | Response body: not shown |', { request: ['position.cancel'], response: ['position.cancel'], beyond: ['ledger'] }),
  'EP-patch': fail('| PATCH | /positions/{positionId} | Body: `autoRollover` boolean, `autoRefinance` boolean | Response body: not shown |', { request: ['position.patch'], response: ['position.patch'], beyond: ['ledger'], fields: ['autoRollover', 'autoRefinance'] }),
  'EP-withdraw': fail('| POST | /users/{userId}/withdraw | Body: `asset` string (required), `amount` string (required), `destination` string address (required) | Response body: not shown |', { request: ['user.withdraw'], response: ['user.withdraw'], beyond: ['ledger'], fields: ['asset', 'amount', 'destination'] }),
  'EP-rates': fail('| GET | Get-rates path: not shown | none | Rates response (part 2) |', { request: ['rates.get'], response: ['rates.get'] }),
  'EP-orderbook-auth': fail('| GET | /markets/{asset}/orderbook | Query: `maturity` string filter, `depth` number (default 10) | Response body: not shown |', { request: ['orderbook.get'], response: ['orderbook.get'], fields: ['maturity', 'depth'] }),
  'EP-webhooks': fail('| POST | /webhooks | Body: `url` string, `events` array of string, `secret` string (whether optional or required: not shown) | Response body: not shown |', { request: ['webhooks.create', 'webhooks.list', 'webhooks.delete'], response: ['webhooks.create', 'webhooks.list', 'webhooks.delete'], beyond: ['deliveries'], resources: ['subscription'], fields: ['url', 'events', 'secret'] }),
  'EP-public-markets': fail('| GET | /markets | none | Object with `markets` array (Market) |', { request: ['public.markets'], response: ['public.markets'] }),
  'EP-public-orderbook': fail('| GET | /markets/{id}/orderbook | none | Object with `lends` and `borrows` |', { request: ['public.orderbook'], response: ['public.orderbook'] }),
  'EP-public-rates': fail('| GET | /markets/rates | none | Response body: not shown |', { request: ['public.rates'], response: ['public.rates'] }),
  'EP-public-analytics': fail('| GET | /analytics/tvl | Query `period` string (example form `30d`) | Response body: not shown | … | GET | /analytics/volume | Query `period` string | Response body: not shown | … | GET | /analytics/rates | Query `asset`, `maturity`, `period` (strings) | Response body: not shown |', { request: ['public.tvl', 'public.volume', 'public.rateSeries'], response: ['public.tvl', 'public.volume', 'public.rateSeries'] }),
  'EP-public-vaults': fail('| GET | /vaults | none | Response body: not shown | … | GET | /vaults/{id} | `id` is a vault slug string | Response body: not shown |', { request: ['public.vaults', 'public.vault'], response: ['public.vaults', 'public.vault'] }),
  'EP-json': fail('The service is a REST interface over JSON … Requests with bodies are JSON and carry `Content-Type: application/json`.', { request: [EVERY], response: [EVERY] }),
  'EP-version-path': fail('The version is carried in the base address path: `/v1` for both production and sandbox.', { request: [EVERY], response: [EVERY] }),
  'PUB-envelope': fail('Public responses are stated to carry the payload under `data` together with a `timestamp` (ISO 8601 UTC).', { response: [EVERY_PUBLIC], resources: ['public-wrapper'], fields: ['data', 'timestamp'] }),

  'AUTH-1': fail('Every authenticated request carries the header `Authorization: Bearer <API_KEY>`.', { request: [EVERY_KEY], response: [EVERY_KEY] }),
  'AUTH-2': fail('| Production | `ck_live_` | Live transactions | … | Sandbox | `ck_test_` | Testing only |', { request: [EVERY_KEY], response: [EVERY_KEY] }),
  'AUTH-4': fail('A request with an invalid key fails with status 401 and code `authentication_failed`.', { request: [EVERY_KEY], response: [EVERY_KEY], resources: ['error-object'], fields: ['error.code'] }),
  'AUTH-5': fail('The public endpoints listed in part 4 need no key.', { request: [EVERY_PUBLIC], response: [EVERY_PUBLIC] }),
  'AUTH-isolation': fail("A partner places lend orders and borrow orders on behalf of its own users, identified by the partner's own `userId`.", { request: [EVERY_KEY], response: [EVERY_KEY], beyond: ['deliveries', 'ledger'] }),

  'HOOK-event-types': fail('| position.created | New position created / order placed | … | withdrawal.completed | Withdrawal processed |', { beyond: ['deliveries', 'receiver'], resources: ['event-envelope'], fields: ['type'] }),
  'HOOK-envelope': fail('| id | string, event identifier | … | type | string, one of the event types | … | timestamp | string, ISO 8601 UTC | … | data | object |', { beyond: ['deliveries', 'receiver'], resources: ['event-envelope'], fields: ['id', 'type', 'timestamp', 'data'] }),
  'HOOK-matched-data': fail('For `position.matched`, `data` holds: `positionId` (string), `userId` (string), `rate` (number), `amount` (string), `maturity` (ISO 8601 UTC string)', { beyond: ['deliveries'], resources: ['matched-data'], fields: ['positionId', 'userId', 'rate', 'amount', 'maturity'] }),
  'HOOK-post': fail('Delivery is by HTTP POST to the subscribed `url`, in near real time, as a replacement for polling.', { beyond: ['deliveries', 'receiver'] }),
  'HOOK-signature-header': fail('Each delivery carries a signature in the header `x-service-signature`.', { beyond: ['deliveries', 'receiver'] }),
  'HOOK-verify-raw': fail('The receiver verifies the signature over the raw request body with the subscription secret before processing, and answers 401 when invalid.', { beyond: ['deliveries', 'receiver'] }),
  'HOOK-invalid-401': fail('The receiver verifies the signature over the raw request body with the subscription secret before processing, and answers 401 when invalid.', { beyond: ['receiver'] }),
  'HOOK-answer-5s': fail('The receiver answers with status 200 within 5 seconds.', { beyond: ['receiver'] }),
  'HOOK-idempotent': fail('The same event may be delivered more than once; receivers handle events idempotently (by event `id`).', { beyond: ['deliveries', 'receiver'], fields: ['id'] }),
  'HOOK-retry-count': fail('A failed delivery is retried up to five times', { beyond: ['deliveries'] }),
  'HOOK-retry-schedule': fail('after these delays: 1 minute, 5 minutes, 30 minutes, 2 hours, 24 hours (1st to 5th retry).', { beyond: ['deliveries'] }),
  'HOOK-secret-prefix': fail('| secret | string | Signing secret, prefix `whsec_`; placeholder <SIGNING_SECRET> |', { request: ['webhooks.create'], beyond: ['deliveries'], resources: ['subscription'], fields: ['secret'] }),
  'HOOK-subscription': fail('A subscription names a `url` and the list of `events` wanted (see POST /webhooks), and has a signing secret.', { request: ['webhooks.create'], beyond: ['deliveries'], resources: ['subscription'], fields: ['url', 'events', 'secret'] }),

  'ERR-invalid_request': fail('| invalid_request | 400 | Malformed request |', { request: [EVERY], response: [EVERY], resources: ['error-object'], fields: ['error.code'] }),
  'ERR-authentication_failed': fail('| authentication_failed | 401 | Invalid API key |', { request: [EVERY_KEY], response: [EVERY_KEY], resources: ['error-object'], fields: ['error.code'] }),
  'ERR-insufficient_funds': fail('| insufficient_funds | 400 | Not enough balance |', { request: ['lend.create', 'borrow.create', 'user.withdraw', 'position.repay'], response: ['lend.create', 'borrow.create', 'user.withdraw', 'position.repay'], beyond: ['ledger'], resources: ['error-object'], fields: ['error.code'] }),
  'ERR-insufficient_funds-details': fail('Optional; for `insufficient_funds` holds `required` and `available`, both decimal strings', { response: ['lend.create', 'borrow.create', 'user.withdraw', 'position.repay'], beyond: ['ledger'], resources: ['error-object'], fields: ['error.details.required', 'error.details.available'] }),
  'ERR-position_not_found': fail('| position_not_found | 404 | Position does not exist |', { request: ['position.get', 'position.repay', 'position.cancel', 'position.patch'], response: ['position.get', 'position.repay', 'position.cancel', 'position.patch'], resources: ['error-object'], fields: ['error.code'] }),
  'ERR-rate_limit_exceeded': fail('| rate_limit_exceeded | 429 | Too many requests |', { response: [EVERY], resources: ['error-object'], fields: ['error.code'] }),
  'ERR-internal_error': fail('| internal_error | 500 | Server error |', { response: [EVERY], resources: ['error-object'], fields: ['error.code'] }),
  'ERR-public-429-body': fail('The public endpoints use the same body for `rate_limit_exceeded` (message: too many requests).', { response: [EVERY_PUBLIC], resources: ['error-object'], fields: ['error.code', 'error.message'] }),

  'LIMIT-tier-starter': fail('| Starter | 60 | 100 |', { response: [EVERY_KEY] }),
  'LIMIT-tier-growth': fail('| Growth | 300 | 500 |', { response: [EVERY_KEY] }),
  'LIMIT-tier-scale': fail('| Scale | 1000 | 2000 |', { response: [EVERY_KEY] }),
  'LIMIT-public': fail('Public endpoints without authentication: 60 requests per minute.', { response: [EVERY_PUBLIC] }),
  'LIMIT-429': fail('Exceeding a limit yields status 429 with code `rate_limit_exceeded`.', { response: [EVERY], resources: ['error-object'] }),
  'LIMIT-headers': fail('Responses carry the headers `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`.', { response: [EVERY], fields: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] }),
  'PAGE-limit-default': fail('| Position list `limit` | default 20, maximum 100 |', { request: ['positions.list'], response: ['positions.list'], fields: ['limit', 'positions'] }),
  'PAGE-limit-max': fail('`limit` (number, default 20, max 100)', { request: ['positions.list'], response: ['positions.list'], fields: ['limit'] }),
  'PAGE-cursor': fail('| nextCursor | string | Cursor for the next page |', { request: ['positions.list'], response: ['positions.list'], resources: ['position-list'], fields: ['nextCursor', 'cursor'] }),
  'PAGE-hasMore': fail('| hasMore | boolean | True when further pages exist |', { response: ['positions.list'], resources: ['position-list'], fields: ['hasMore'] }),
  'PAGE-filters': fail('Query: `status` (pending, active, matured, cancelled), `type` (lend, borrow)', { request: ['positions.list'], response: ['positions.list'], fields: ['status', 'type'] }),
  'QUERY-list-status': fail('Query: `status` (pending, active, matured, cancelled)', { request: ['positions.list'], response: ['positions.list'], fields: ['status'] }),
  'QUERY-list-type': fail('`type` (lend, borrow)', { request: ['positions.list'], response: ['positions.list'], fields: ['type'] }),
  'PAGE-limit-applied': fail('`limit` (number, default 20, max 100)', { request: ['positions.list'], response: ['positions.list'], fields: ['limit', 'positions'] }),
  'BOOK-depth': fail('`depth` number (default 10)', { request: ['orderbook.get'], response: ['orderbook.get'], fields: ['depth'] }),
  'BOOK-maturity-filter': fail('Query: `maturity` string filter', { request: ['orderbook.get'], response: ['orderbook.get'], fields: ['maturity'] }),
  'BOOK-depth-default': fail('| Order book `depth` | default 10 |', { request: ['orderbook.get', 'public.orderbook'], response: ['orderbook.get', 'public.orderbook'], fields: ['depth', 'lends', 'borrows'] }),

  'CONC-no-overcommit': fail('| insufficient_funds | 400 | Not enough balance |', { response: ['lend.create', 'borrow.create', 'user.withdraw'], beyond: ['ledger'] }),
  'CONC-one-transition': fail('Cancel applies to an unmatched order. … the full amount is repaid when omitted', { response: ['position.cancel', 'position.repay'], beyond: ['ledger'] }),
  'CONC-conservation': fail('| insufficient_funds | 400 | Not enough balance |', { beyond: ['ledger'] }),
  'CONC-isolation': fail("A partner places lend orders and borrow orders on behalf of its own users, identified by the partner's own `userId`.", { request: [EVERY_KEY], response: [EVERY_KEY], beyond: ['ledger'] }),
  'CONC-page-under-writes': fail('| nextCursor | string | Cursor for the next page |', { response: ['positions.list'], fields: ['nextCursor', 'positions'] }),
  'CONC-patch-no-lost-update': fail('| PATCH | /positions/{positionId} | Body: `autoRollover` boolean, `autoRefinance` boolean | Response body: not shown |', { request: ['position.patch'], response: ['position.get'], fields: ['autoRollover', 'autoRefinance'] }),
  'CONC-match-no-overfill': fail('| position.matched | Order matched with a counterparty |', { response: ['position.get', 'positions.list'], beyond: ['ledger'] }),
  'CONC-read-after-write': fail('Positions are read singly or as a per-user list, and can be repaid, cancelled, or have their auto-features changed.', { request: ['position.patch', 'position.cancel'], response: ['position.get', 'positions.list'], beyond: ['ledger'] }),

  'LEDGER-linearizable': fail('| insufficient_funds | 400 | Not enough balance | … Cancel applies to an unmatched order.', { beyond: ['ledger'] }),
  'LEDGER-model': fail('Conventions: amounts are decimal strings. … the full amount is repaid when omitted', { beyond: ['ledger'] }),
  'LEDGER-conserved': fail("Users' available funds can be withdrawn to a destination address.", { beyond: ['ledger'] }),
};
