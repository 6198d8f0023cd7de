import { z } from 'zod';

// Reusable field rules of spec part 2 ("Conventions").

const DECIMAL_RE = /^-?(0|[1-9]\d*)(\.\d+)?$/;
/** Amounts are decimal strings: no exponent, no leading zeros, no sign unless negative. */
export const decimalString = z
  .string()
  .regex(DECIMAL_RE, 'must be a decimal string such as "100.50"')
  .meta({ description: 'Decimal string', examples: ['1000.00'] });

const POSITIVE_DECIMAL_RE = /^(0|[1-9]\d*)(\.\d+)?$/;
export const positiveDecimalString = z
  .string()
  .regex(POSITIVE_DECIMAL_RE, 'must be a decimal string such as "100.50"')
  .refine((s) => /[1-9]/.test(s), 'must be greater than zero')
  .meta({ description: 'Positive decimal string', examples: ['1000.00'] });

export const nonNegativeDecimalString = z
  .string()
  .regex(POSITIVE_DECIMAL_RE, 'must be a non-negative decimal string')
  .meta({ description: 'Non-negative decimal string', examples: ['0', '12.5'] });

/**
 * Rates are fractions: 0.08 means 8 %. The spec gives no upper bound, so none is here: the
 * profile's (bounds.rateBelow) is added per endpoint by contract/rate-bound.ts.
 */
export const fractionRate = z
  .number()
  .finite()
  .min(0, 'must be a fraction of at least 0')
  .meta({ description: 'Rate as a fraction', examples: [0.08] });

const ISO_UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** Response timestamps: ISO 8601 in UTC, with the Z designator. */
export const isoUtcTimestamp = z
  .string()
  .regex(ISO_UTC_RE, 'must be an ISO 8601 UTC timestamp ending in Z')
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a real date and time')
  .meta({ description: 'ISO 8601 UTC timestamp', examples: ['2026-01-15T10:30:00Z'] });

const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DURATION_RE = /^[1-9]\d{0,4}d$/;

export function isIsoDate(s: string): boolean {
  if (!ISO_DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

export const durationString = z
  .string()
  .regex(DURATION_RE, 'must be a duration of the form <n>d, such as 30d')
  .meta({ description: 'Duration in days', examples: ['30d', '90d'] });

/** `maturity` in a request: an ISO date (YYYY-MM-DD) or a duration `<n>d`. */
export const maturityInput = z
  .string()
  .refine((s) => DURATION_RE.test(s) || isIsoDate(s), 'must be an ISO date (YYYY-MM-DD) or a duration such as 30d')
  .meta({ description: 'ISO date or duration', examples: ['30d', '2026-12-31'] });

export const DURATION_PATTERN = DURATION_RE;
export const ISO_UTC_PATTERN = ISO_UTC_RE;

/** Number of digits after the point, for precision rules. */
export function decimalPlaces(s: string): number {
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

export const ethAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address: 0x followed by 40 hex digits')
  .meta({ description: 'On-chain address', examples: ['0x742d35Cc6634C0532925a3b844Bc454e4438f44e'] });
