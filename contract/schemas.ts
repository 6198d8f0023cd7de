import { z } from 'zod';
import {
  ERROR_CODES,
  EVENT_TYPES,
  LEND_ASSETS,
  LEND_MODES,
  POSITION_STATUSES,
  POSITION_TYPES,
  WEBHOOK_SECRET_PREFIX,
} from './constants.ts';
import {
  decimalString,
  durationString,
  fractionRate,
  isoUtcTimestamp,
  maturityInput,
  positiveDecimalString,
} from './refinements.ts';

// Records the spec shows (part 2, 6 and 7). Response objects are "loose": documented
// fields are checked strictly, undocumented extras pass and are reported as notes by
// the conformance suite, so a richer but correct service is never failed.

const userId = z.string().min(1, 'must be a non-empty string').max(128, 'must be at most 128 characters');
export const lendAsset = z.enum(LEND_ASSETS);
export const positionStatus = z.enum(POSITION_STATUSES);
export const positionType = z.enum(POSITION_TYPES);
export const eventType = z.enum(EVENT_TYPES);

export const lendRequest = z.object({
  userId,
  asset: lendAsset,
  amount: positiveDecimalString,
  rate: fractionRate.optional(),
  maturity: maturityInput.optional(),
  mode: z.enum(LEND_MODES).optional(),
  autoRollover: z.boolean().optional(),
});
export type LendRequest = z.infer<typeof lendRequest>;

/** The spec names no full asset list for borrowing, so assets are strings here; the profile narrows them. */
export const borrowRequest = z.object({
  userId,
  collateral: z.object({
    asset: z.string().min(1, 'must be a non-empty string'),
    amount: positiveDecimalString,
  }),
  borrowAsset: z.string().min(1, 'must be a non-empty string'),
  borrowAmount: positiveDecimalString,
  rate: fractionRate.optional(),
  maturity: maturityInput.optional(),
  autoRefinance: z.boolean().optional(),
});
export type BorrowRequest = z.infer<typeof borrowRequest>;

export const cbt = z.looseObject({
  amount: decimalString,
  tokenAddress: z.string().min(1),
});

/** The single-position response (GET /positions/{positionId}). */
export const position = z.looseObject({
  positionId: z.string().min(1),
  status: z.string().min(1),
  type: positionType,
  userId,
  asset: z.string().min(1),
  amount: decimalString,
  rate: fractionRate,
  maturity: isoUtcTimestamp,
  cbt,
  projectedReturn: decimalString,
  accruedInterest: decimalString,
  autoRollover: z.boolean().optional(),
  autoRefinance: z.boolean().optional(),
  createdAt: isoUtcTimestamp,
  matchedAt: isoUtcTimestamp.optional(),
});
export type Position = z.infer<typeof position>;

/** POST /lend answers with these fields, and without `type`. */
export const createLendResponse = z
  .looseObject({
    positionId: z.string().min(1),
    status: z.literal('pending'),
    userId,
    asset: lendAsset,
    amount: decimalString,
    rate: fractionRate,
    maturity: isoUtcTimestamp,
    autoRollover: z.boolean(),
    createdAt: isoUtcTimestamp,
  })
  .refine((o) => !('type' in o), { message: 'must not carry `type`', path: ['type'] });
export type CreateLendResponse = z.infer<typeof createLendResponse>;

export const positionListItem = z.looseObject({
  positionId: z.string().min(1),
  status: z.string().min(1),
  type: positionType,
  asset: z.string().min(1),
  amount: decimalString,
  rate: fractionRate,
  maturity: isoUtcTimestamp,
});

export const positionList = z.looseObject({
  positions: z.array(positionListItem),
  // Part 2 says only "string": an empty cursor on the last page is a legal choice (pageRules notes it).
  nextCursor: z.string().nullable().optional(),
  hasMore: z.boolean(),
});
export type PositionList = z.infer<typeof positionList>;

export const positionListQuery = z.object({
  status: positionStatus.optional(),
  type: positionType.optional(),
  // Any integer from 1, not only a safe one: zod's int() would also state a maximum of 2^53-1, a bound
  // the spec does not give (its 100 is the profile's pagination.overMax: reject refuses more, clamp takes any).
  limit: z.coerce.number().refine(Number.isInteger, 'must be an integer').min(1, 'must be at least 1').optional(),
  cursor: z.string().min(1, 'must be a non-empty cursor').optional(),
});

export const rateEntry = z.looseObject({
  asset: z.string().min(1),
  maturity: durationString,
  lendRate: fractionRate,
  borrowRate: fractionRate,
  spread: z.number().finite(),
});
export const ratesResponse = z.looseObject({
  rates: z.array(rateEntry),
  timestamp: isoUtcTimestamp,
});

export const market = z.looseObject({
  id: z.string().min(1),
  asset: z.string().min(1),
  maturity: z.string().min(1),
  lendRate: fractionRate,
  borrowRate: fractionRate,
  totalLent: decimalString,
  totalBorrowed: decimalString,
});
export const marketList = z.looseObject({ markets: z.array(market) });

export const orderBookLevel = z.looseObject({ rate: fractionRate, amount: decimalString });
export const orderBook = z.looseObject({
  lends: z.array(orderBookLevel),
  borrows: z.array(orderBookLevel),
});

/** The spec's rule for a webhook secret: its prefix, and nothing more (part 2). */
export const webhookSecret = z
  .string()
  // A regex, not startsWith: JSON Schema gets the spec's rule as `pattern: ^whsec_` (startsWith exports a non-standard format).
  .regex(new RegExp(`^${WEBHOOK_SECRET_PREFIX}`), `must start with ${WEBHOOK_SECRET_PREFIX}`);

/** The secret under the profile's minimum length (webhooks.secretMinLength; null: none, as the spec gives none). */
export const webhookSecretFor = (minLength: number | null) =>
  minLength === null ? webhookSecret : webhookSecret.min(minLength, `must carry at least ${Math.max(0, minLength - WEBHOOK_SECRET_PREFIX.length)} characters after the prefix`);

/** A subscription under the spec alone: the secret's prefix, no length bound. */
export const webhookSubscription = z.object({
  url: z.url({ error: 'must be an absolute URL' }),
  events: z.array(eventType).min(1, 'must name at least one event type'),
  secret: webhookSecret.optional(),
});
export type WebhookSubscription = z.infer<typeof webhookSubscription>;

/** A subscription under the profile's minimum secret length (webhooks.secretMinLength). */
/**
 * Under standard-webhooks the secret is its key: whsec_ then base64 (whole groups of 4, the
 * decoded bytes non-empty), as signing/signature.ts standardWebhooksKey reads it. A document
 * exported under a profile with that scheme says so (a target of that scheme refuses the rest).
 */
const STANDARD_WEBHOOKS_SECRET = new RegExp(`^${WEBHOOK_SECRET_PREFIX}(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$`);

/** A subscription under a profile: the secret's length bound, and its form where the signature scheme fixes it. */
export const webhookSubscriptionFor = (minLength: number | null, scheme?: string) => {
  if (scheme !== 'standard-webhooks') return minLength === null ? webhookSubscription : webhookSubscription.extend({ secret: webhookSecretFor(minLength).optional() });
  const keyed = z.string().regex(STANDARD_WEBHOOKS_SECRET, `must be ${WEBHOOK_SECRET_PREFIX} followed by base64 (the signature scheme is standard-webhooks, whose key is the decoded base64)`);
  return webhookSubscription.extend({ secret: (minLength === null ? keyed : keyed.min(minLength, `must carry at least ${Math.max(0, minLength - WEBHOOK_SECRET_PREFIX.length)} characters after the prefix`)).optional() });
};

export const eventEnvelope = z.looseObject({
  id: z.string().min(1),
  type: eventType,
  timestamp: isoUtcTimestamp,
  data: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof eventEnvelope>;

export const positionMatchedData = z.looseObject({
  positionId: z.string().min(1),
  userId,
  rate: fractionRate,
  amount: decimalString,
  maturity: isoUtcTimestamp,
  type: positionType.optional(),
});

export const errorCode = z.enum(ERROR_CODES as [string, ...string[]]);
export const errorBody = z.looseObject({
  error: z.looseObject({
    code: z.string().min(1),
    message: z.string().min(1),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const insufficientFundsError = z.looseObject({
  error: z.looseObject({
    code: z.literal('insufficient_funds'),
    message: z.string().min(1),
    details: z.looseObject({ required: decimalString, available: decimalString }),
  }),
});

export const withdrawRequest = z.object({
  asset: z.string().min(1, 'must be a non-empty string'),
  amount: positiveDecimalString,
  destination: z.string().min(1, 'must be a non-empty string'),
});

export const repayRequest = z.object({ amount: positiveDecimalString.optional() });

export const patchPositionRequest = z
  .object({ autoRollover: z.boolean().optional(), autoRefinance: z.boolean().optional() })
  .refine((b) => b.autoRollover !== undefined || b.autoRefinance !== undefined, {
    message: 'must set autoRollover or autoRefinance',
    path: ['autoRollover'],
  });

export const orderBookQuery = z.object({
  maturity: durationString.optional(),
  // Any integer, not only a safe one (zod's int() would also state a maximum of 2^53-1, a bound the spec does not give).
  depth: z.coerce.number().refine(Number.isInteger, 'must be an integer').min(1, 'must be at least 1').optional(),
});

/** The order book query under a maximum depth (profile bounds.orderbookMaxDepth; the spec gives none). */
export const orderBookQueryUpTo = (max: number | null) =>
  max === null ? orderBookQuery : orderBookQuery.extend({ depth: z.coerce.number().int('must be an integer').min(1, 'must be at least 1').max(max, `must be at most ${max}`).optional() });
