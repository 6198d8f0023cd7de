// Plain TypeScript on purpose: k6 scenarios import this file by relative path,
// and k6 resolves no node_modules, so nothing here may import a package.
// Every value below is stated by the spec itself; open points live in profile.ts.

export const API_VERSION_PREFIX = '/v1';

export const LEND_ASSETS = ['USDC', 'USDT', 'DAI'] as const;
export type LendAsset = (typeof LEND_ASSETS)[number];

export const LEND_MODES = ['easy', 'advanced'] as const;
export type LendMode = (typeof LEND_MODES)[number];

/** Status values named by the list filter (spec part 3). */
export const POSITION_STATUSES = ['pending', 'active', 'matured', 'cancelled'] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

export const POSITION_TYPES = ['lend', 'borrow'] as const;
export type PositionType = (typeof POSITION_TYPES)[number];

export const EVENT_TYPES = [
  'position.created',
  'position.matched',
  'position.matured',
  'position.liquidated',
  'position.rolled',
  'withdrawal.completed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The documented error codes and their HTTP statuses (spec part 7). */
export const ERROR_STATUS = {
  invalid_request: 400,
  authentication_failed: 401,
  insufficient_funds: 400,
  position_not_found: 404,
  rate_limit_exceeded: 429,
  internal_error: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export const KEY_PREFIX = { production: 'ck_live_', sandbox: 'ck_test_' } as const;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const SIGNATURE_HEADER = 'x-service-signature';

export const RATE_LIMIT_HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
} as const;

export interface TierLimit {
  /** Sustained requests per minute. */
  perMinute: number;
  /** The burst figure of the tier table; its meaning is a profile choice. */
  burst: number;
}

/** Enterprise is "custom" in the spec, so it is absent here and comes from the key store. */
export const TIERS = {
  starter: { perMinute: 60, burst: 100 },
  growth: { perMinute: 300, burst: 500 },
  scale: { perMinute: 1000, burst: 2000 },
} as const satisfies Record<string, TierLimit>;
export type TierName = keyof typeof TIERS;
export const TIER_NAMES = Object.keys(TIERS) as TierName[];

/** Part 8: unauthenticated public endpoints, and the authenticated figure quoted beside it. */
export const PUBLIC_PER_MINUTE = 60;
export const AUTHENTICATED_PER_MINUTE = 300;
export const PUBLIC_RATE_LIMIT_MESSAGE = 'too many requests';

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
export const ORDERBOOK_DEPTH_DEFAULT = 10;

/** Delays before the 1st..5th retry, in milliseconds (part 6, delivery rule 3). */
export const WEBHOOK_RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 60 * 60_000,
  24 * 60 * 60_000,
] as const;
export const WEBHOOK_MAX_RETRIES = WEBHOOK_RETRY_DELAYS_MS.length;
export const WEBHOOK_RESPONSE_DEADLINE_MS = 5_000;
