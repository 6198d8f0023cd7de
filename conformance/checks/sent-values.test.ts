import { describe, expect, it } from 'vitest';
import { defaultProfile, endpointBody, withdrawRequest } from '../../contract/index.ts';
import { bodyCases } from '../cases.ts';
import { queryCases } from '../query-cases.ts';
import { casesToSend, neighbourPerSet, unsent, unsentCases } from './sent-values.ts';

const lendValid = { userId: 'u', asset: 'USDC', amount: '100', rate: 0.05, maturity: '30d' };
const borrowValid = { userId: 'u', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '100', rate: 0.08, maturity: '30d' };
const lend = () => bodyCases(endpointBody(defaultProfile, 'lend.create'), lendValid, { profile: defaultProfile, endpoint: 'lend.create' });
const borrow = () => bodyCases(endpointBody(defaultProfile, 'borrow.create'), borrowValid, { profile: defaultProfile, endpoint: 'borrow.create' });

describe('a malformed value is sent once a run', () => {
  it('sends every case of the first endpoint', () => {
    const seen = new Set<string>();
    expect(unsentCases(seen, lend()).left).toEqual([]);
  });

  it('keeps every field its missing and wrong-type cases, its enum edges and its first format, bound or value case', () => {
    const seen = new Set<string>();
    unsentCases(seen, lend());
    const all = borrow();
    const { send, left } = unsentCases(seen, all);
    expect(send.length + left.length).toBe(all.length);
    expect(left.length).toBeGreaterThanOrEqual(10);
    for (const c of left) expect(['format', 'bound', 'value']).toContain(c.kind);
    for (const field of new Set(all.map((c) => c.field))) {
      const mine = all.filter((c) => c.field === field);
      for (const k of ['missing', 'type', 'neighbour', 'case', 'unknown', 'empty']) {
        expect(send.filter((c) => c.field === field && c.kind === k).length, `${field} ${k}`).toBe(mine.filter((c) => c.kind === k).length);
      }
      if (mine.some((c) => ['format', 'bound', 'value'].includes(c.kind ?? ''))) expect(send.some((c) => c.field === field && ['format', 'bound', 'value'].includes(c.kind ?? '')), field).toBe(true);
    }
  });

  it('sends the order book\'s maturity filter its first near miss only, once a body was refused them', () => {
    const seen = new Set<string>();
    unsentCases(seen, lend());
    const q = queryCases(defaultProfile).filter((c) => c.expect !== 'valid');
    const { send, left } = unsent(seen, q, (c) => c.value);
    const maturity = (cs: typeof q) => cs.filter((c) => c.endpoint === 'orderbook.get' && c.field === 'maturity');
    expect(maturity(send)).toHaveLength(1);
    expect(maturity(left).length).toBeGreaterThanOrEqual(3);
    // Past a maximum is the profile's choice, never left out.
    expect(left.filter((c) => c.expect === 'over-max')).toEqual([]);
  });

  it('leaves out a value another field of the same check was already given, and notes it', () => {
    const shared = new Map<string, unknown>();
    const notes: string[] = [];
    const ctx = { shared, note: (t: string) => void notes.push(t) };
    const cases = bodyCases(withdrawRequest, { asset: 'USDC', amount: '1', destination: '0xabc' }, { endpoint: 'user.withdraw' });
    expect(casesToSend(ctx, cases)).toHaveLength(cases.length);
    const again = casesToSend(ctx, cases);
    expect(again.length).toBeLessThan(cases.length);
    expect(notes.join('\n')).toMatch(/left out, their malformed values already refused/);
  });

  it('sends one neighbour of each value set a field borrows from, and no unknown value beside it', () => {
    const { send, left } = neighbourPerSet(lend());
    const asset = (cs: ReturnType<typeof lend>) => cs.filter((c) => c.field === 'asset' && ['neighbour', 'unknown'].includes(c.kind ?? '')).map((c) => (c.body as { asset: string }).asset);
    expect(asset(send)).toEqual(['ETH']);
    expect(asset(left)).toEqual(['WBTC', 'USDC-unknown']);
    // A mode has no neighbours: its unknown value stays.
    expect(send.some((c) => c.field === 'mode' && c.kind === 'unknown')).toBe(true);
    const q = neighbourPerSet(queryCases(defaultProfile).filter((c) => c.expect !== 'valid'));
    expect(q.send.filter((c) => c.kind === 'neighbour').map((c) => `${c.field}=${c.value}`)).toEqual(['status=borrow', 'type=active']);
    expect(q.send.filter((c) => c.kind === 'unknown')).toEqual([]);
  });
});
