import { describe, expect, it } from 'vitest';
import { defaultProfile, endpoints, parseProfile, REQUEST_RULES, REQUIREMENT_IDS, valueSetOf, type Profile } from '../contract/index.ts';
import { bodyCases } from './cases.ts';
import { boundsOf, constrainedFields, enumOf, NEAR_MISSES, type CaseKind, type ConstrainedField } from './field-rules.ts';
import { fieldQueryCases, queryCases } from './query-cases.ts';

// Every request field and query parameter the contract constrains has generated edge cases,
// each citing the requirement it comes from: a new rule in the table is covered without a new
// check, and a field left without cases fails here (the last test shows it does).

const VALID: Record<string, Record<string, unknown>> = {
  'lend.create': { userId: 'u', asset: 'USDC', amount: '100', rate: 0.5, maturity: '30d' },
  'borrow.create': { userId: 'u', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '100', rate: 0.01, maturity: '30d' },
  'user.withdraw': { asset: 'USDC', amount: '1', destination: `0x${'1'.repeat(40)}` },
  'position.repay': { amount: '1' },
  'position.patch': { autoRollover: true, autoRefinance: false },
  'webhooks.create': { url: 'http://127.0.0.1:9/hook', events: ['position.created'] },
};

type Generate = (f: ConstrainedField, profile: Profile) => Array<{ kind?: CaseKind }>;

const generated: Generate = (f, profile) =>
  f.where === 'query' ? fieldQueryCases(f, profile) : bodyCases(f.full, VALID[f.endpoint]!, { profile, endpoint: f.endpoint }).filter((c) => c.field === f.field);

/** What is missing: a field without a rule row, a cited id that does not exist, a field or a constraint without cases. */
function gaps(profile: Profile, generate: Generate): string[] {
  const out: string[] = [];
  for (const f of constrainedFields(profile)) {
    const at = `${f.endpoint} ${f.where} ${f.field}`;
    if (!f.rule?.requirements.length) out.push(`${at}: no requirement in contract/request-rules.ts`);
    for (const id of f.rule?.requirements ?? []) if (!REQUIREMENT_IDS.has(id)) out.push(`${at}: cites unknown ${id}`);
    const kinds = new Set(generate(f, profile).map((c) => c.kind));
    if (!kinds.size) out.push(`${at}: no generated case`);
    const e = enumOf(f.schema);
    if (e && !valueSetOf(e.options)) out.push(`${at}: an enum the spec's value sets do not name (no neighbours)`);
    if (e && !(['case', 'empty', 'unknown'] as const).every((k) => kinds.has(k))) out.push(`${at}: an enum without its case variant, empty string and unknown value`);
    if (boundsOf(f.schema)?.min !== undefined && !kinds.has('bound')) out.push(`${at}: a bound without cases at it`);
    if (NEAR_MISSES.has(f.schema) && !kinds.has('format')) out.push(`${at}: a format without near misses`);
    if (f.where === 'body' && !f.optional && !kinds.has('missing')) out.push(`${at}: a required field never left out`);
  }
  return out;
}

describe('request rules generated from the contract', () => {
  for (const [name, profile] of [
    ['the default profile', defaultProfile],
    ['a profile with other assets, no depth maximum and a clamped limit', parseProfile({ assets: { collateral: ['ETH', 'WETH', 'USDC'], borrow: ['USDC', 'EURC'] }, bounds: { orderbookMaxDepth: null }, pagination: { overMax: 'clamp' } })],
  ] as const) {
    it(`every constrained field and parameter has cases citing its requirement, under ${name}`, () => {
      expect(gaps(profile, generated)).toEqual([]);
    });
  }

  it('covers the rules the spec names: lend asset, mode, maturity, required fields, status, type, limit, depth', () => {
    const at = new Set(constrainedFields(defaultProfile).map((f) => `${f.endpoint} ${f.where} ${f.field}`));
    for (const k of ['lend.create body asset', 'lend.create body mode', 'lend.create body maturity', 'borrow.create body collateral.asset', 'user.withdraw body destination', 'positions.list query status', 'positions.list query type', 'positions.list query limit', 'orderbook.get query depth', 'orderbook.get query maturity']) expect(at, k).toContain(k);
    // Every row of the table names a field the schemas have: none goes stale.
    for (const r of REQUEST_RULES) expect(at, `${r.endpoint} ${r.where} ${r.field}`).toContain(`${r.endpoint} ${r.where} ${r.field}`);
  });

  it("gives a lend asset the values valid elsewhere (the collateral examples and the profile's lists), a type filter the statuses", () => {
    const lend = bodyCases(endpoints(defaultProfile).find((e) => e.id === 'lend.create')!.body!, VALID['lend.create']!, { profile: defaultProfile, endpoint: 'lend.create' });
    const assets = lend.filter((c) => c.field === 'asset' && c.kind === 'neighbour').map((c) => (c.body as { asset: string }).asset);
    expect(assets).toEqual(['ETH', 'WBTC']);
    expect(lend.find((c) => c.kind === 'neighbour')!.requirements).toEqual(['FIELD-lend-asset']);
    const other = parseProfile({ assets: { collateral: ['WETH', 'USDC'] } });
    const otherLend = bodyCases(endpoints(other).find((e) => e.id === 'lend.create')!.body!, VALID['lend.create']!, { profile: other, endpoint: 'lend.create' });
    expect(otherLend.filter((c) => c.kind === 'neighbour').map((c) => (c.body as { asset: string }).asset)).toEqual(['ETH', 'WETH']);
    const q = queryCases(defaultProfile);
    expect(q.filter((c) => c.field === 'type' && c.kind === 'neighbour').map((c) => c.value)).toEqual(['active', 'cancelled', 'matured', 'pending']);
    expect(q.filter((c) => c.field === 'status' && c.kind === 'neighbour').map((c) => c.value)).toEqual(['borrow', 'lend']);
  });

  it('takes each bound at ±1 and at the limit, and classifies each value as the spec and profile say', () => {
    const q = queryCases(defaultProfile);
    const of = (field: string) => Object.fromEntries(q.filter((c) => c.field === field && c.kind === 'bound').map((c) => [c.value, c.expect]));
    expect(of('limit')).toEqual({ 0: 'invalid', 1: 'valid', 2: 'valid', 19: 'valid', 20: 'valid', 21: 'valid', 99: 'valid', 100: 'valid', 101: 'over-max', 1.5: 'invalid' });
    expect(of('depth')).toMatchObject({ 0: 'invalid', 1: 'valid', 9: 'valid', 10: 'valid', 11: 'valid', 1000: 'valid', 1001: 'over-max' });
    // No depth maximum in the profile (the spec gives none): nothing past it is asserted.
    expect(Object.values(queryCases(parseProfile({ bounds: { orderbookMaxDepth: null } })).filter((c) => c.field === 'depth').map((c) => c.expect))).not.toContain('over-max');
    // The book's maturity is a "string filter" (part 4): refused, or matching nothing.
    expect(q.filter((c) => c.field === 'maturity').every((c) => c.expect === 'no-match')).toBe(true);
  });

  it('fails when a constrained field is left without cases (one removed)', () => {
    const without: Generate = (f, p) => (f.endpoint === 'orderbook.get' && f.field === 'depth' ? [] : generated(f, p));
    expect(gaps(defaultProfile, without)).toEqual(['orderbook.get query depth: no generated case', 'orderbook.get query depth: a bound without cases at it']);
    const noNeighbourSet: Generate = (f, p) => (f.field === 'asset' && f.endpoint === 'lend.create' ? generated(f, p).filter((c) => c.kind !== 'empty') : generated(f, p));
    expect(gaps(defaultProfile, noNeighbourSet)).toEqual(['lend.create body asset: an enum without its case variant, empty string and unknown value']);
  });
});
