import { expect } from 'vitest';
import { errorBody } from '../../../contract/index.ts';

// The order bodies and the error assertion both endpoint suites (endpoints.suite.ts,
// reads.suite.ts) share, apart from either, so neither imports the other back.

export const lend = (userId: string, extra: Record<string, unknown> = {}) => ({ userId, asset: 'USDC', amount: '1000', rate: 0.05, maturity: '30d', ...extra });
export const borrow = (userId: string, extra: Record<string, unknown> = {}) => ({
  userId, collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '1000', rate: 0.06, maturity: '30d', ...extra,
});

export function expectError(r: { status: number; body: any }, status: number, code: string, field?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(errorBody.safeParse(r.body).success, 'body is the spec error object').toBe(true);
  expect(r.body.error.code).toBe(code);
  if (field) expect(r.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}\\b`));
}
