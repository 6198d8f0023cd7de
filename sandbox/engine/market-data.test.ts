import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app.ts';
import { markets } from './market-data.ts';

// Market totals are cached between writes; a write must always show in the next read.
describe('market totals cache', () => {
  let sb: Sandbox;
  afterEach(async () => sb?.close());

  it('shows a fill in the very next read, and holds steady between writes', async () => {
    sb = createSandbox({ plugins: [], liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false });
    const usdc30 = () => markets(sb.engine).markets.find((m) => m.id === 'USDC-30d')!;
    sb.engine.lend('partner_a', { userId: 'l', asset: 'USDC', amount: '10', rate: 0.05, maturity: '30d' });
    expect(usdc30().totalLent).toBe('0');
    expect(usdc30().totalLent).toBe('0');
    sb.engine.borrow('partner_a', { userId: 'b', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '4', rate: 0.5, maturity: '30d' });
    expect(usdc30()).toMatchObject({ totalLent: '4', totalBorrowed: '4' });
    sb.engine.borrow('partner_a', { userId: 'c', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '6', rate: 0.5, maturity: '30d' });
    expect(usdc30()).toMatchObject({ totalLent: '10', totalBorrowed: '10' });
  });
});
