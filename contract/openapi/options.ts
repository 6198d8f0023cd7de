import { EVENT_TYPES } from '../constants.ts';
import { endpoints } from '../endpoints.ts';
import { defaultProfile, SUCCESS_STATUS_DEFAULTS, PUBLIC_ENVELOPE_DEFAULTS } from '../profile.ts';
import { ROUTES, type RouteId } from '../routes.ts';
import { SHOWN_BY_OPTION } from './by-profile.ts';

// Which parts of the exported OpenAPI document each profile option changes: one row per
// option (a record's entries one by one), with a value that differs from the default and
// the JSON Pointers (a `*` segment stands for any one key) of the parts it changes. An
// empty list says the option changes nothing in the document, and why. The test beside this
// file (openapi-options.test.ts) builds the document under each row's value and checks that
// exactly the listed parts change: nothing else, and each of them.

export interface OptionEffect {
  /** The dotted option, as `profile detect` names it. */
  option: string;
  /** A profile input setting the option to a value other than its default; undefined when it has one choice only. */
  set?: Record<string, unknown>;
  /** JSON Pointers (prefixes, `*` for any one segment) of the parts the option changes. */
  parts: string[];
  /** What the document says under it, or why it says nothing. */
  says: string;
}

/** A JSON Pointer from raw segments (RFC 6901 escapes). */
export const ptr = (...segments: string[]) => segments.map((s) => `/${s === '*' ? '*' : s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
const op = (path: string, method: string, ...rest: string[]) => ptr('paths', path, method, ...rest);
const JSON_BODY = ['requestBody', 'content', 'application/json', 'schema'];

/** An endpoint's path in the document: the table's (routes.ts), the two order books sharing the public one's path item. */
const docPath = (id: RouteId): string => ROUTES[id === 'orderbook.get' ? 'public.orderbook' : id].path;
/** The JSON Pointer of endpoint `id`'s operation in the document, or of a part of it. */
const opOf = (id: RouteId, ...rest: string[]) => ptr('paths', docPath(id), ROUTES[id].method.toLowerCase(), ...rest);
/** The JSON Pointer of endpoint `id`'s path item (every method on its path), or of a part of it. */
const pathOf = (id: RouteId, ...rest: string[]) => ptr('paths', docPath(id), ...rest);
const ids = (...list: RouteId[]) => list;

/** The endpoint of a success-status key (the profile file's "METHOD path"; `GET /rates` is the get-rates endpoint, whatever its path). */
function endpointOfKey(key: string): RouteId {
  const id = (Object.keys(ROUTES) as RouteId[]).find((i) => `${ROUTES[i].method} ${ROUTES[i].path}` === key);
  if (!id) throw new Error(`successStatus.${key}: no endpoint of the table has this method and path`);
  return id;
}

const bodyOps = endpoints(defaultProfile).filter((e) => e.body).map((e) => op(e.path, e.method.toLowerCase(), 'responses'));
const oneChoice = (option: string): OptionEffect => ({ option, parts: [], says: 'one choice only: nothing to vary' });
const none = (option: string, why: string, set: Record<string, unknown>): OptionEffect => ({ option, set, parts: [], says: why });

export const OPTION_EFFECTS: OptionEffect[] = [
  { option: 'name', set: { name: 'renamed' }, parts: [ptr('info', 'description')], says: 'the profile name in info.description' },
  ...Object.entries(SUCCESS_STATUS_DEFAULTS).map(([key, status]): OptionEffect => {
    return { option: `successStatus.${key}`, set: { successStatus: { ...SUCCESS_STATUS_DEFAULTS, [key]: status === 203 ? 200 : 203 } }, parts: [opOf(endpointOfKey(key), 'responses')], says: 'the status code of the success response' };
  }),
  { option: 'ratesPath', set: { ratesPath: '/market-rates' }, parts: [pathOf('rates.get'), ptr('paths', '/market-rates')], says: 'the path of the get-rates operation' },
  ...Object.entries(PUBLIC_ENVELOPE_DEFAULTS).map(([path, form]): OptionEffect => ({
    option: `publicEnvelope.${path}`,
    set: { publicEnvelope: { ...PUBLIC_ENVELOPE_DEFAULTS, [path]: form === 'bare' ? 'data' : 'bare' } },
    parts: [op(path, 'get', 'responses', '200', 'content')],
    says: 'the success body: bare, or wrapped as {data, timestamp}',
  })),
  oneChoice('orderbookPath'),
  none('orderbookLevels.lends', 'where the authenticated book keeps its lend levels: that body is not shown (part 4), so the document does not describe it', { orderbookLevels: { lends: { path: 'data.asks' } } }),
  none('orderbookLevels.borrows', 'where the authenticated book keeps its borrow levels: that body is not shown (part 4), so the document does not describe it', { orderbookLevels: { borrows: { path: 'data.bids' } } }),
  { option: 'signature.scheme', set: { signature: { scheme: 'hmac-sha256-hex' } }, parts: EVENT_TYPES.map((t) => ptr('webhooks', t, 'post', 'parameters')), says: 'the form (pattern) of the x-service-signature header of every delivery' },
  none('signature.toleranceSeconds', 'the receiver\'s replay window: no field of the document', { signature: { toleranceSeconds: 60 } }),
  { option: 'webhooks.secretMinLength', set: { webhooks: { secretMinLength: null } }, parts: [opOf('webhooks.create', ...JSON_BODY, 'properties', 'secret', 'minLength')], says: 'the `minLength` of the webhook `secret` (none when null: the spec gives only its prefix)' },
  { option: 'webhooks.secretRequired', set: { webhooks: { secretRequired: true } }, parts: [opOf('webhooks.create', ...JSON_BODY, 'required')], says: 'whether POST /webhooks requires `secret`' },
  none('webhooks.registrationSecret', 'whether a registration answer echoes a given secret: the answer is not shown by the spec, so only the fields `profile detect` recorded (`responses`) are said', { webhooks: { registrationSecret: 'always' } }),
  none('webhooks.afterFinalRetry', 'what the sender does after the last retry: no field of the document', { webhooks: { afterFinalRetry: 'drop' } }),
  none('webhooks.retryDelayFrom', 'the sender\'s retry timing: no field of the document', { webhooks: { retryDelayFrom: 'attempt-start' } }),
  none('webhooks.successStatuses', 'what the sender counts as delivered: the document states the receiver\'s 200 (part 6) either way', { webhooks: { successStatuses: '200' } }),
  none('webhooks.allowLoopbackHttp', 'which URLs a subscription takes: a server rule, not a schema (the url stays a URL)', { webhooks: { allowLoopbackHttp: false } }),
  none('webhooks.requireHttps', 'whether an http:// url must be refused: a server rule, not a schema (the url stays a URL)', { webhooks: { requireHttps: true } }),
  none('webhooks.refuseInternalAddresses', 'whether an internal address must be refused: a server rule, not a schema', { webhooks: { refuseInternalAddresses: true } }),
  none('access.foreignStatus', 'the answer to another partner\'s object: the document lists no per-caller answers', { access: { foreignStatus: '403' } }),
  { option: 'webhooks.listAndDelete', set: { webhooks: { listAndDelete: false } }, parts: [opOf('webhooks.list'), pathOf('webhooks.delete')], says: 'whether GET /webhooks and DELETE /webhooks/{webhookId} exist' },
  { option: 'webhooks.deleteWithoutList', set: { webhooks: { listAndDelete: false, deleteWithoutList: true } }, parts: [opOf('webhooks.list'), opOf('webhooks.delete', SHOWN_BY_OPTION)], says: 'with the list off, DELETE /webhooks/{webhookId} is still exported (only GET /webhooks goes), marked as present by this option' },
  { option: 'bounds.rateBelow', set: { bounds: { rateBelow: 2 } }, parts: [ptr('paths', '*', '*', 'requestBody'), ptr('paths', '*', '*', 'responses')], says: 'the exclusiveMaximum of every rate a body or answer the spec shows carries (none when null)' },
  { option: 'bounds.orderbookMaxDepth', set: { bounds: { orderbookMaxDepth: 100 } }, parts: [opOf('public.orderbook', 'parameters')], says: 'the maximum of the order book `depth` (none when null)' },
  { option: 'webhooks.matchedIncludesType', set: { webhooks: { matchedIncludesType: false } }, parts: [ptr('webhooks', 'position.matched', 'post', ...JSON_BODY, 'properties', 'data', 'required')], says: 'whether position.matched data requires `type`' },
  { option: 'requests.unknownFields', set: { requests: { unknownFields: 'reject' } }, parts: [ptr('paths', '*', '*', 'requestBody')], says: 'every request body closed (additionalProperties: false) under reject, open under ignore; said in its description' },
  oneChoice('limits.burstMeaning'),
  { option: 'limits.limitHeader', set: { limits: { limitHeader: 'per-minute' } }, parts: [ptr('paths', '*', '*', 'responses', '*', 'headers', 'X-RateLimit-Limit')], says: 'what X-RateLimit-Limit counts, on every response' },
  { option: 'limits.resetUnit', set: { limits: { resetUnit: 'unix-ms' } }, parts: [ptr('paths', '*', '*', 'responses', '*', 'headers', 'X-RateLimit-Reset')], says: 'the unit of X-RateLimit-Reset, on every response' },
  oneChoice('limits.tierAssignment'),
  none('limits.defaultTier', 'a key\'s tier: no field of the document', { limits: { defaultTier: 'scale' } }),
  oneChoice('limits.publicScope'),
  none('limits.publicBurst', 'a rate-limit size: no field of the document', { limits: { publicBurst: 120 } }),
  none('limits.maxBodyBytes', 'the size bound; its error status is errors.payloadTooLarge\'s', { limits: { maxBodyBytes: 4096 } }),
  { option: 'pagination.overMax', set: { pagination: { overMax: 'clamp' } }, parts: [opOf('positions.list', 'parameters')], says: 'whether `limit` has a maximum of 100 (reject) or none (clamp)' },
  { option: 'pagination.lastPageCursor', set: { pagination: { lastPageCursor: 'null' } }, parts: [opOf('positions.list', 'responses', '200', 'content', 'application/json', 'schema', 'properties', 'nextCursor')], says: 'nextCursor on the last page: absent, or null' },
  none('pagination.order', 'the list order: no schema can state it', { pagination: { order: 'created-asc' } }),
  none('lifecycle.statusAfterFullRepay', 'status is a string in the spec; a value the list filter does not name is allowed', { lifecycle: { statusAfterFullRepay: 'repaid', transitions: { pending: ['active', 'cancelled'], active: ['matured', 'repaid', 'liquidated'], matured: [], cancelled: [], repaid: [], liquidated: [] } } }),
  none('lifecycle.statusAfterLiquidation', 'status is a string in the spec', { lifecycle: { statusAfterLiquidation: 'seized', transitions: { pending: ['active', 'cancelled'], active: ['matured', 'seized'], matured: [], cancelled: [], seized: [] } } }),
  none('lifecycle.cancellable', 'which states allow cancel: a state rule (schemathesis.toml)', { lifecycle: { cancellable: ['pending', 'active'] } }),
  none('lifecycle.transitions', 'the state machine: no schema can state it', { lifecycle: { transitions: { pending: ['active', 'cancelled'], active: ['matured'], matured: [], cancelled: [] } } }),
  none('lifecycle.autoRolloverAdvancedDefault', 'a default that depends on `mode`: JSON Schema has no conditional default', { lifecycle: { autoRolloverAdvancedDefault: true } }),
  { option: 'lifecycle.autoRefinanceDefault', set: { lifecycle: { autoRefinanceDefault: true } }, parts: [opOf('borrow.create', ...JSON_BODY, 'properties', 'autoRefinance', 'default')], says: 'the default of autoRefinance' },
  { option: 'lifecycle.defaultMaturity', set: { lifecycle: { defaultMaturity: '90d' } }, parts: [opOf('lend.create', ...JSON_BODY, 'properties', 'maturity', 'default'), opOf('borrow.create', ...JSON_BODY, 'properties', 'maturity', 'default')], says: 'the default of maturity in orders' },
  none('lifecycle.maturityDateResolution', 'how a date maps to a market: a server rule', { lifecycle: { maturityDateResolution: 'exact-market' } }),
  { option: 'lifecycle.repayOnLend', set: { lifecycle: { repayOnLend: { code: 'not_a_borrow', status: 422 } } }, parts: [opOf('position.repay', 'responses')], says: 'the error status (and code) of a repay on a lend' },
  {
    option: 'errors.invalidState',
    set: { errors: { invalidState: { code: 'conflict', status: 409 } } },
    parts: [opOf('position.repay', 'responses'), opOf('position.cancel', 'responses'), opOf('position.patch', 'responses')],
    says: 'the error status (and code) of an operation the state does not allow',
  },
  {
    option: 'errors.unsupportedAsset',
    set: { errors: { unsupportedAsset: { code: 'unsupported_asset', status: 422 } } },
    parts: ids('lend.create', 'borrow.create', 'public.orderbook', 'public.rateSeries', 'user.withdraw', 'sandbox.fund', 'sandbox.oracle').map((id) => pathOf(id, '*', 'responses')),
    says: 'the error status (and code) of an unsupported asset',
  },
  { option: 'errors.unknownUser', set: { errors: { unknownUser: 'position_not_found' } }, parts: [opOf('positions.list', 'responses')], says: 'whether the list of an unknown user answers 404' },
  {
    option: 'errors.unknownRoute',
    set: { errors: { unknownRoute: { code: 'gone', status: 410 } } },
    parts: ids('webhooks.delete', 'public.vault', 'public.orderbook', 'sandbox.attempts', 'sandbox.resend', 'sandbox.webhook.pause', 'sandbox.webhook.resume').map((id) => pathOf(id, '*', 'responses')),
    says: 'the error status (and code) of an unknown id in a path',
  },
  { option: 'errors.payloadTooLarge', set: { errors: { payloadTooLarge: { code: 'too_large', status: 400 } } }, parts: bodyOps, says: 'the error status (and code) of an oversized body, on every operation with a body' },
  none('errors.insufficientFundsDetails', 'the spec marks error.details optional, so the document keeps them optional; the option tells the suites whether to learn a user\'s funds from them', { errors: { insufficientFundsDetails: false } }),
  none('consistency.readAfterWrite', 'when a read reflects a write is behaviour over time, which a document of single operations cannot state', { consistency: { readAfterWrite: 'eventual' } }),
  none('consistency.convergenceMs', 'when a read reflects a write is behaviour over time, which a document of single operations cannot state', { consistency: { convergenceMs: 5_000 } }),
  none('bodies.fieldNames', 'the bodies it renames are ones the spec does not show, which the document leaves open (or types by the fields `profile detect` recorded, `responses`)', { bodies: { fieldNames: { 'GET /vaults': { vaults: 'items' } } } }),
  none('errors.methodNotAllowed', 'a method a path lacks has no operation to carry a status; the Schemathesis runner turns unsupported_method off when it is not 405 (conformance/schemathesis/config.ts)', { errors: { methodNotAllowed: { code: 'not_found', status: 404 } } }),
  { option: 'errors.unsupportedMediaType', set: { errors: { unsupportedMediaType: { code: 'unsupported_media_type', status: 415 } } }, parts: bodyOps, says: 'the error status (and code) of a wrong Content-Type, on every operation with a body' },
  { option: 'assets.borrow', set: { assets: { borrow: ['USDC'] } }, parts: [opOf('borrow.create', 'requestBody')], says: 'the borrow assets of POST /borrow' },
  { option: 'assets.collateral', set: { assets: { collateral: ['ETH'] } }, parts: [opOf('borrow.create', 'requestBody')], says: 'the collateral assets of POST /borrow' },
  {
    option: 'assets.info',
    set: { assets: { info: { ...defaultProfile.assets.info, USDC: { decimals: 2, oraclePriceUsd: '1' } } } },
    parts: ids('lend.create', 'borrow.create', 'user.withdraw', 'sandbox.fund').map((id) => opOf(id, 'requestBody')),
    says: 'the places an amount may have, per asset',
  },
  { option: 'amounts.minOrder', set: { amounts: { minOrder: '0.5' } }, parts: [opOf('lend.create', 'requestBody'), opOf('borrow.create', 'requestBody')], says: 'the smallest order amount (in the amount pattern)' },
  { option: 'amounts.maxOrder', set: { amounts: { maxOrder: '1000' } }, parts: [opOf('lend.create', 'requestBody'), opOf('borrow.create', 'requestBody')], says: 'the largest order amount (in the amount pattern)' },
  { option: 'amounts.minWithdrawal', set: { amounts: { minWithdrawal: '0.5' } }, parts: [opOf('user.withdraw', 'requestBody')], says: 'the smallest withdrawal (in the amount pattern)' },
  none('amounts.minCollateralRatio', 'depends on oracle prices: a state rule (schemathesis.toml)', { amounts: { minCollateralRatio: '2' } }),
  none('amounts.pledgeTaken', 'a pledge seen taken, at the oracle prices of the day: a state rule, as the ratio (schemathesis.toml)', { amounts: { pledgeTaken: { 'ETH/USDC': '0.001' } } }),
  none('amounts.liquidationRatio', 'when a loan is liquidated: no field of the document', { amounts: { liquidationRatio: '1.1' } }),
  {
    option: 'markets.maturities',
    set: { markets: { maturities: ['7d', '30d'] } },
    parts: [opOf('lend.create', 'requestBody'), opOf('borrow.create', 'requestBody'), opOf('public.orderbook', 'parameters'), opOf('public.rateSeries', 'parameters')],
    says: 'the markets: order maturities, book segments and filters',
  },
  { option: 'markets.idSeparator', set: { markets: { idSeparator: ':' } }, parts: [opOf('public.orderbook', 'parameters')], says: 'the form of a market id in the book path' },
  { option: 'markets.periods', set: { markets: { periods: ['1d', '30d'] } }, parts: ids('public.tvl', 'public.volume', 'public.rateSeries').map((id) => opOf(id, 'parameters')), says: 'the allowed values of `period`' },
  { option: 'markets.defaultPeriod', set: { markets: { defaultPeriod: '7d' } }, parts: ids('public.tvl', 'public.volume', 'public.rateSeries').map((id) => opOf(id, 'parameters')), says: 'the default of `period`' },
  { option: 'withdrawals.destinationPattern', set: { withdrawals: { destinationPattern: '^bc1[a-z0-9]{11,71}$' } }, parts: [opOf('user.withdraw', 'requestBody')], says: 'the form of a withdrawal destination' },
  none('cbt.amountBasis', 'what cbt.amount counts: its type (a decimal string) is the same', { cbt: { amountBasis: 'principal' } }),
  oneChoice('keys.issuance'),
  oneChoice('versioning.deprecationPolicy'),
  { option: 'ids.webhook', set: { ids: { webhook: 'id' } }, parts: [opOf('webhooks.create', 'responses')], says: 'the id field a registration requires, and the link to DELETE /webhooks/{webhookId} that reads it' },
  { option: 'ids.withdrawal', set: { ids: { withdrawal: 'withdrawalId' } }, parts: [opOf('user.withdraw', 'responses')], says: 'the id field a withdrawal record requires' },
  { option: 'ids.borrow', set: { ids: { borrow: 'loanId' } }, parts: [opOf('borrow.create', 'responses')], says: 'the id field a borrow answer requires' },
  { option: 'ids.repay', set: { ids: { repay: 'positionId' } }, parts: [opOf('position.repay', 'responses')], says: 'the id field a repay result requires' },
  {
    option: 'responses',
    set: { responses: { 'POST /borrow': { fields: { positionId: 'string', userId: 'string', rate: 'number' } } } },
    parts: [opOf('borrow.create', 'responses')],
    says: 'the fields `profile detect` saw in a body the spec does not show, named in its description (advice: no type promised, none required, so no link reads them)',
  },
  none('funding.userIds', 'how lendcheck funds users: not the service\'s interface', { funding: { userIds: ['u1'] } }),
  none('funding.request', 'how lendcheck funds users: not the service\'s interface', { funding: { request: { method: 'POST', path: '/fund/{userId}' } } }),
  { option: 'events.emitted', set: { events: { emitted: ['position.created', 'position.matched'] } }, parts: EVENT_TYPES.filter((t) => !['position.created', 'position.matched'].includes(t)).map((t) => ptr('webhooks', t)), says: 'which deliveries the webhooks section describes' },
];
