import { describe, expect, it } from 'vitest';
import { borrowRequest, lendRequest, patchPositionRequest, withdrawRequest } from '../contract/index.ts';
import { bodyCases } from './cases.ts';

describe('bodyCases', () => {
  it('derives only bodies the contract refuses, naming the broken field', () => {
    const valid = { userId: 'u', asset: 'USDC', amount: '10', rate: 0.05, maturity: '30d' };
    expect(lendRequest.safeParse(valid).success).toBe(true);
    const cases = bodyCases(lendRequest, valid);
    for (const c of cases) expect(lendRequest.safeParse(c.body).success, c.what).toBe(false);
    const fields = new Set(cases.map((c) => c.field));
    for (const f of ['userId', 'asset', 'amount', 'rate', 'maturity', 'mode', 'autoRollover']) expect(fields, f).toContain(f);
    expect(cases.map((c) => c.what)).toEqual(expect.arrayContaining(['userId missing', 'amount as an exponent', 'maturity as a bare number']));
  });

  it('reaches nested fields and refined objects', () => {
    const b = { userId: 'u', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '10' };
    const cases = bodyCases(borrowRequest, b);
    expect(cases.map((c) => c.field)).toEqual(expect.arrayContaining(['collateral', 'collateral.asset', 'collateral.amount']));
    for (const c of cases) expect(borrowRequest.safeParse(c.body).success).toBe(false);
    expect(bodyCases(patchPositionRequest, { autoRollover: true }).length).toBeGreaterThan(0);
    expect(bodyCases(withdrawRequest, { asset: 'USDC', amount: '1', destination: '0xabc' }).map((c) => c.field)).toEqual(expect.arrayContaining(['asset', 'amount', 'destination']));
  });

  it('gives a required field absent, null and one wrong type; an optional one a wrong type (its own sharper value where it has one), not null', () => {
    const valid = { userId: 'u', asset: 'USDC', amount: '10', rate: 0.05, maturity: '30d' };
    const cases = bodyCases(lendRequest, valid);
    const of = (field: string) => cases.filter((c) => c.field === field && ['missing', 'type'].includes(c.kind ?? '')).map((c) => c.what);
    expect(of('userId')).toEqual(['userId missing', 'userId as a number', 'userId as null']);
    expect(of('rate')).toEqual(['rate as a numeric string']);
    expect(of('maturity')).toEqual(['maturity as a number']);
  });
});

