import { describe, expect, it } from 'vitest';
import { assetPrice, collateralFor, DEFAULT_ASSET_INFO, defaultProfile, parseProfile, periodToSend, pledgePerUnit, UnknownOption } from './index.ts';
import { buildOpenApi } from './openapi/document.ts';

// A detected profile that could not read the assets' prices and decimals, or the analytics
// periods, records them as unknown (null) (issue 47). No pledge is priced at the sandbox's
// prices, no period list is promised, and what is sent falls back only to the spec's own example.

const thrownBy = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('unknown asset prices (assets.info null)', () => {
  const unknown = parseProfile({ assets: { info: null } });

  it('parses as null, and the default profile keeps the sandbox\'s record', () => {
    expect(unknown.assets.info).toBeNull();
    expect(defaultProfile.assets.info).toEqual(DEFAULT_ASSET_INFO);
  });

  it('makes a pledge at the known ratio throw UnknownOption naming assets.info', () => {
    const e = thrownBy(() => collateralFor(unknown, 'USDC', '100'));
    expect(e).toBeInstanceOf(UnknownOption);
    expect((e as UnknownOption).option).toBe('assets.info');
    expect((e as Error).message).toMatch(/ETH against USDC.*needs profile assets\.info, which is unknown/);
  });

  it('names assets.info where the record lacks a price of the pair, never pricing it at 1', () => {
    const p = parseProfile({ assets: { info: { USDC: { decimals: 6, oraclePriceUsd: '1' } } } });
    const e = thrownBy(() => assetPrice(p, 'ETH', 'a pledge'));
    expect((e as UnknownOption).option).toBe('assets.info');
    expect((e as Error).message).toMatch(/ETH's price \(the record has no ETH\)/);
    expect(() => collateralFor(p, 'USDC', '100')).toThrow(UnknownOption);
  });

  it('pledges a pledge seen taken for the pair instead (amounts.pledgeTaken)', () => {
    const p = parseProfile({ assets: { info: null }, amounts: { pledgeTaken: { 'ETH/USDC': '0.001' } } });
    expect(pledgePerUnit(p, 'ETH', 'USDC').toFixed()).toBe('0.001');
    expect(collateralFor(p, 'USDC', '100')).toEqual({ asset: 'ETH', amount: '0.2' });
  });

  it('prices the pledge where a profile file sets them', () => {
    const p = parseProfile({ assets: { info: { ...DEFAULT_ASSET_INFO, ETH: { decimals: 18, oraclePriceUsd: '1000' } } } });
    // 100 USDC at 1.5, twice: 300 USD, at 1000 USD an ETH.
    expect(collateralFor(p, 'USDC', '100')).toEqual({ asset: 'ETH', amount: '0.3' });
  });

  it('leaves the exported document without asset lists or precisions it does not know', () => {
    const doc = JSON.stringify(buildOpenApi(unknown));
    expect(doc).not.toContain('"enum":["USDC","USDT","DAI","ETH","WBTC"]');
    const w = (buildOpenApi(unknown) as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; allOf?: unknown } }> } }>> }).paths['/users/{userId}/withdraw']!.post!.requestBody.content['application/json']!.schema;
    expect(w.properties.asset).toEqual({ type: 'string' });
    expect(w.allOf).toBeUndefined();
  });
});

describe('unknown analytics periods (markets.periods, markets.defaultPeriod null)', () => {
  const unknown = parseProfile({ markets: { periods: null, defaultPeriod: null } });
  type Param = { name: string; schema: Record<string, unknown> };
  const periodParam = (p: ReturnType<typeof parseProfile>) => (buildOpenApi(p) as { paths: Record<string, { get: { parameters: Param[] } }> }).paths['/analytics/tvl']!.get.parameters.find((x) => x.name === 'period')!.schema;

  it('sends the spec\'s example 30d, or the detected default', () => {
    expect(periodToSend(unknown)).toBe('30d');
    expect(periodToSend(parseProfile({ markets: { periods: null, defaultPeriod: '7d' } }))).toBe('7d');
  });

  it('sends a period the profile file lists: its default when listed, else the first', () => {
    expect(periodToSend(parseProfile({ markets: { periods: ['7d', '1y'] } }))).toBe('7d');
    expect(periodToSend(parseProfile({ markets: { periods: ['1y', '30d'] } }))).toBe('30d');
    expect(periodToSend(parseProfile({ markets: { periods: ['1y'], defaultPeriod: null } }))).toBe('1y');
  });

  it('promises no list and no default in the exported document', () => {
    expect(periodParam(unknown)).toEqual({ type: 'string', example: '30d' });
    expect(periodParam(parseProfile({ markets: { periods: ['1d', '1y'], defaultPeriod: '1y' } }))).toEqual({ type: 'string', enum: ['1d', '1y'], default: '1y' });
  });
});
