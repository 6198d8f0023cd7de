import { z } from 'zod';
import { WEBHOOK_SECRET_PREFIX } from './constants.ts';
import { decimalString, fractionRate, isoUtcTimestamp } from './refinements.ts';

// Fields part 2 names with a type, by name, and where part 2 gives each its type (issue 47).
// Part 2 binds a type to the resources it gives it to: a position, the list items, the rate
// entries, markets, order book levels, the subscription, the event envelope, the error object.
// Those bodies are judged by their own schemas (contract/schemas.ts). In a body the spec does
// NOT show, a same-named field is no such resource's field: another type there is advice (a
// note with its evidence, a failure only under --strict), never a failure of a correct service.

export interface SpecNamed {
  /** The type part 2 gives the field where it gives it one. */
  type: z.ZodType;
  /** The requirement (contract/requirements.ts) whose sentence gives the type. */
  requirement: string;
  /** Where part 2 gives it: the resources the sentence binds. */
  where: string;
}

const named = (type: z.ZodType, requirement: string, where: string): SpecNamed => ({ type, requirement, where });

export const SPEC_NAMED: Record<string, SpecNamed> = {
  amount: named(decimalString, 'CONV-amount-decimal', 'a position, the list items and the order book levels (part 2: "amounts are decimal strings")'),
  totalLent: named(decimalString, 'SHAPE-market', 'a market (part 2)'),
  totalBorrowed: named(decimalString, 'SHAPE-market', 'a market (part 2)'),
  projectedReturn: named(decimalString, 'SHAPE-position', 'a single position (part 2)'),
  accruedInterest: named(decimalString, 'SHAPE-position', 'a single position (part 2)'),
  borrowAmount: named(decimalString, 'FIELD-borrow-borrowAmount', 'the borrow order request (part 2)'),
  rate: named(fractionRate, 'CONV-rate-fraction', 'a position, the list items and the order book levels (part 2: "rates are numbers expressed as fractions")'),
  lendRate: named(fractionRate, 'CONV-rate-fraction', 'the rate entries and markets (part 2)'),
  borrowRate: named(fractionRate, 'CONV-rate-fraction', 'the rate entries and markets (part 2)'),
  spread: named(z.number().finite(), 'SHAPE-rates', 'the rate entries (part 2)'),
  createdAt: named(isoUtcTimestamp, 'CONV-timestamp-utc', 'a position (part 2)'),
  matchedAt: named(isoUtcTimestamp, 'SHAPE-position-matchedAt', 'a position, "present once matched" (part 2)'),
  timestamp: named(isoUtcTimestamp, 'CONV-timestamp-utc', 'the rates response, the event envelope and the public wrapper (parts 2, 4, 6)'),
  positionId: named(z.string(), 'SHAPE-position', 'a position and the list items (part 2)'),
  userId: named(z.string(), 'SHAPE-position', 'a position (part 2)'),
  asset: named(z.string(), 'SHAPE-position', 'a position, the list items, the rate entries and markets (part 2)'),
  borrowAsset: named(z.string(), 'FIELD-borrow-borrowAsset', 'the borrow order request (part 2)'),
  status: named(z.string(), 'SHAPE-position', 'a position and the list items (part 2)'),
  type: named(z.string(), 'SHAPE-position', 'a position and the list items (part 2)'),
  maturity: named(z.string(), 'SHAPE-position', 'a position, the list items, the rate entries and markets (part 2)'),
  autoRollover: named(z.boolean(), 'SHAPE-position', 'a position (part 2)'),
  autoRefinance: named(z.boolean(), 'SHAPE-position', 'a position (part 2)'),
  events: named(z.array(z.string()), 'HOOK-subscription', 'the webhook subscription (part 2)'),
  secret: named(z.string().regex(new RegExp(`^${WEBHOOK_SECRET_PREFIX}`), `must start with ${WEBHOOK_SECRET_PREFIX}`), 'HOOK-secret-prefix', 'the webhook subscription (part 2)'),
};

/** The types alone, by field name. */
export const SPEC_NAMED_FIELDS: Record<string, z.ZodType> = Object.fromEntries(Object.entries(SPEC_NAMED).map(([k, v]) => [k, v.type]));
