import { ORDERBOOK_DEPTH_DEFAULT, marketId } from '../../contract/index.ts';
import type { Engine } from '../engine/engine.ts';
import { runDueWork, withdrawalView } from '../engine/lifecycle.ts';
import * as md from '../engine/market-data.ts';
import { iso } from '../store/rows.ts';
import { createBorrowView, createLendView, positionView } from '../engine/views.ts';
import { RawJson } from './raw-json.ts';
import { ApiError, invalid } from '../answer/errors.ts';
import type { KeyInfo } from '../pipeline/plugin.ts';

// One resolver per endpoint id of the contract's table. Inputs arrive parsed by the
// endpoint's own schemas; the resolver returns the success body (before any envelope).

export interface Input {
  partner?: KeyInfo;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: any;
}

export type Resolver = (engine: Engine, input: Input) => unknown;

const pid = (i: Input) => i.partner!.partnerId;

/** The market a public market id ("USDC-30d") names, if any. */
function findMarketId(e: Engine, id: string): { asset: string; maturity: string } | undefined {
  for (const asset of e.marketAssets()) {
    for (const maturity of e.profile.markets.maturities) if (marketId(e.profile, asset, maturity) === id) return { asset, maturity };
  }
  return undefined;
}

export const RESOLVERS: Record<string, Resolver> = {
  'lend.create': (e, i) => createLendView(e.lend(pid(i), i.body)),
  'borrow.create': (e, i) => createBorrowView(e.borrow(pid(i), i.body)),
  'position.get': (e, i) => positionView(e, e.viewPosition(pid(i), i.params.positionId)),
  'positions.list': (e, i) => {
    // Items come as JSON text from SQLite (listItemView's shape); the page is joined around them.
    const page = e.listPositions(pid(i), i.params.userId, i.query, 'json');
    let tail = '';
    if (page.nextCursor) tail = `,"nextCursor":${JSON.stringify(page.nextCursor)}`;
    else if (e.profile.pagination.lastPageCursor === 'null') tail = ',"nextCursor":null';
    return new RawJson(`{"positions":[${page.items!.join(',')}],"hasMore":${page.hasMore}${tail}}`);
  },
  'position.repay': (e, i) => e.repay(pid(i), i.params.positionId, i.body?.amount),
  'position.cancel': (e, i) => e.cancel(pid(i), i.params.positionId),
  'position.patch': (e, i) => positionView(e, e.patch(pid(i), i.params.positionId, i.body)),
  'user.withdraw': (e, i) => withdrawalView(e.withdraw(pid(i), i.params.userId, i.body)),
  'rates.get': (e) => ({ rates: md.rates(e), timestamp: iso(e.now()) }),
  'orderbook.get': (e, i) => {
    // The path is shared with the public book, so a keyed request may name a market id
    // there too: it reads as the asset's book at that market's maturity.
    const market = e.marketAssets().includes(i.params.asset) ? undefined : findMarketId(e, i.params.asset);
    const asset = market?.asset ?? i.params.asset;
    if (!e.marketAssets().includes(asset)) throw e.unsupportedAsset('asset', asset);
    const asked = i.query.maturity as string | undefined;
    if (asked !== undefined && !e.profile.markets.maturities.includes(asked)) {
      throw invalid('maturity', `no market for ${asked}; markets are ${e.profile.markets.maturities.join(', ')}`);
    }
    if (market && asked !== undefined && asked !== market.maturity) {
      const nf = e.profile.errors.unknownRoute;
      throw new ApiError(nf.code, `maturity: market ${i.params.asset} has no ${asked} book`, nf.status);
    }
    const maturity = asked ?? market?.maturity;
    const depth = (i.query.depth as number | undefined) ?? ORDERBOOK_DEPTH_DEFAULT;
    const book = md.orderBook(e, asset, maturity ? [maturity] : e.profile.markets.maturities, depth);
    return { asset, ...(maturity ? { maturity } : {}), ...book, timestamp: iso(e.now()) };
  },

  'public.markets': (e) => md.markets(e),
  'public.orderbook': (e, i) => {
    const m = md.parseMarketId(e, i.params.id);
    return md.orderBook(e, m.asset, [m.maturity], ORDERBOOK_DEPTH_DEFAULT);
  },
  'public.rates': (e) => ({ rates: md.rates(e) }),
  'public.tvl': (e, i) => md.tvlSeries(e, i.query.period as string | undefined),
  'public.volume': (e, i) => md.volumeSeries(e, i.query.period as string | undefined),
  'public.rateSeries': (e, i) => md.rateSeries(e, i.query as { asset?: string; maturity?: string; period?: string }),
  'public.vaults': (e) => md.vaults(e),
  'public.vault': (e, i) => md.vault(e, i.params.id),

  'sandbox.fund': (e, i) => ({ userId: i.body.userId, balances: e.fund(pid(i), i.body.userId, i.body.asset, i.body.amount) }),
  'sandbox.balances': (e, i) => ({ userId: i.params.userId, balances: e.balances(pid(i), i.params.userId) }),
  'sandbox.users': (e, i) => ({
    partnerId: pid(i),
    users: e.users(pid(i)).map((u) => ({ userId: u.userId, createdAt: iso(u.createdAtMs), balances: u.balances })),
  }),
  'sandbox.oracle': (e, i) => {
    const r = e.setOraclePrice(i.body.asset, i.body.priceUsd);
    runDueWork(e);
    return r;
  },
  'sandbox.clock': (e) => ({ now: iso(e.now()), timeScale: e.clock.timeScale }),
  'sandbox.clock.advance': (e, i) => {
    // TestClock listeners (the lifecycle hook) run the due work before this answers.
    e.clock.advance(i.body.seconds * 1000);
    return { now: iso(e.now()), timeScale: e.clock.timeScale };
  },
};
