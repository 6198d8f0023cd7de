import { z } from 'zod';
import { EVENT_TYPES, POSITION_TYPES } from './constants.ts';
import { decimalString, durationString, fractionRate, isoUtcTimestamp } from './refinements.ts';
import { cbt, orderBook, position, rateEntry } from './schemas.ts';

// Response bodies the spec leaves "not shown" (part 2 "Other records", part 4).
// These are the shapes of profile `lendcheck-v1`: the reference sandbox answers with
// them, and the conformance suite holds a target to them only under --strict.

export const borrowPosition = position.extend({
  type: z.literal('borrow'),
  collateral: z.looseObject({ asset: z.string().min(1), amount: decimalString }),
  outstanding: decimalString,
  autoRefinance: z.boolean(),
});

export const createBorrowResponse = z.looseObject({
  positionId: z.string().min(1),
  status: z.literal('pending'),
  type: z.literal('borrow'),
  userId: z.string().min(1),
  asset: z.string().min(1),
  amount: decimalString,
  rate: fractionRate,
  maturity: isoUtcTimestamp,
  collateral: z.looseObject({ asset: z.string().min(1), amount: decimalString }),
  autoRefinance: z.boolean(),
  createdAt: isoUtcTimestamp,
});

export const repayResult = z.looseObject({
  positionId: z.string().min(1),
  repaid: decimalString,
  outstanding: decimalString,
  status: z.string().min(1),
  collateralReleased: decimalString,
});

export const cancelResult = z.looseObject({
  positionId: z.string().min(1),
  status: z.literal('cancelled'),
  released: decimalString,
});

/** PATCH answers with the full position, so a client sees the flags as stored. */
export const patchResult = position;

export const withdrawalRecord = z.looseObject({
  withdrawalId: z.string().min(1),
  userId: z.string().min(1),
  asset: z.string().min(1),
  amount: decimalString,
  destination: z.string().min(1),
  status: z.enum(['pending', 'completed']),
  createdAt: isoUtcTimestamp,
  completedAt: isoUtcTimestamp.optional(),
});

export const authOrderBook = orderBook.extend({
  asset: z.string().min(1),
  maturity: durationString.optional(),
  timestamp: isoUtcTimestamp,
});

export const webhookRegistration = z.looseObject({
  webhookId: z.string().min(1),
  url: z.string().min(1),
  events: z.array(z.enum(EVENT_TYPES)),
  createdAt: isoUtcTimestamp,
  /** Returned once, and only when the server generated it. */
  secret: z.string().startsWith('whsec_').optional(),
});
export const webhookList = z.looseObject({
  webhooks: z.array(webhookRegistration.omit({ secret: true })),
});

/** {data, timestamp}: the wrapper part 4 states for public responses. */
export const publicEnvelope = <T extends z.ZodType>(data: T) =>
  z.looseObject({ data, timestamp: isoUtcTimestamp });

export const publicRates = z.looseObject({ rates: z.array(rateEntry) });

export const seriesPoint = z.looseObject({ timestamp: isoUtcTimestamp, value: z.union([decimalString, fractionRate]) });
export const analyticsSeries = z.looseObject({
  metric: z.string().min(1),
  period: z.string().min(1),
  asset: z.string().optional(),
  maturity: z.string().optional(),
  points: z.array(seriesPoint),
});

export const vault = z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  asset: z.string().min(1),
  maturity: durationString,
  apy: fractionRate,
  tvl: decimalString,
});
export const vaultList = z.looseObject({ vaults: z.array(vault) });

// Event data for the types part 6 does not show.
const positionEventData = z.looseObject({
  positionId: z.string().min(1),
  userId: z.string().min(1),
  type: z.enum(POSITION_TYPES),
  asset: z.string().min(1),
  amount: decimalString,
  rate: fractionRate,
  maturity: isoUtcTimestamp,
  status: z.string().min(1),
});
export const eventDataShapes = {
  'position.created': positionEventData,
  'position.matched': positionEventData,
  'position.matured': positionEventData.extend({ payout: decimalString }),
  'position.liquidated': positionEventData.extend({ collateralSeized: decimalString }),
  'position.rolled': positionEventData.extend({ newPositionId: z.string().min(1) }),
  'withdrawal.completed': withdrawalRecord,
} as const;

export { cbt };
