import { DEFAULT_PERIODS, marketId, SPEC_EXAMPLE_PERIOD } from '../../contract/index.ts';
import { ApiError, invalid } from '../answer/errors.ts';
import type { BookSide } from './book.ts';
import type { Engine } from './engine.ts';
import { D, DAY_MS, str, ZERO, type Dec } from '../money/money.ts';
import { iso } from '../store/rows.ts';

// Read models over the books and the recorded history: rates, markets with totals,
// aggregated order books, analytics series and vaults.

export function rates(engine: Engine) {
  const out = [];
  for (const asset of engine.marketAssets()) {
    for (const maturity of engine.profile.markets.maturities) out.push({ asset, maturity, ...engine.quote(asset, maturity) });
  }
  return out;
}

type Totals = Map<string, { lent: Dec; borrowed: Dec }>;
const totalsCache = new WeakMap<Engine, { key: string; value: Totals; changes: { get(): unknown } }>();

/** Lent principal of open lend positions and owed principal of open borrows, per market.
 *  Summing means a scan of every open position, which made GET /markets fall to 13 req/s at
 *  14k positions; the sum is cached until the next write on the connection (total_changes()
 *  counts every INSERT/UPDATE/DELETE, committed or not) or the next rolled-back batch. */
export function totals(engine: Engine): Totals {
  let c = totalsCache.get(engine);
  const changes = c?.changes ?? engine.db.prepare('SELECT total_changes() AS n');
  const key = `${(changes.get() as { n: number }).n}|${engine.rollbacks}`;
  if (c?.key === key) return c.value;
  const value = sumOpenPositions(engine);
  totalsCache.set(engine, (c = { key, value, changes }));
  return value;
}

function sumOpenPositions(engine: Engine): Totals {
  const m: Totals = new Map();
  const rows = engine.db
    .prepare("SELECT asset, market, type, filled, debt FROM positions WHERE status IN ('pending', 'active')")
    .all() as Array<{ asset: string; market: string; type: string; filled: string; debt: string }>;
  for (const r of rows) {
    const k = `${r.asset}|${r.market}`;
    const t = m.get(k) ?? { lent: ZERO, borrowed: ZERO };
    if (r.type === 'lend') t.lent = t.lent.plus(r.filled);
    else t.borrowed = t.borrowed.plus(r.debt);
    m.set(k, t);
  }
  return m;
}

export function markets(engine: Engine) {
  const t = totals(engine);
  const out = [];
  for (const asset of engine.marketAssets()) {
    for (const maturity of engine.profile.markets.maturities) {
      const q = engine.quote(asset, maturity);
      const tt = t.get(`${asset}|${maturity}`);
      out.push({
        id: marketId(engine.profile, asset, maturity), asset, maturity, lendRate: q.lendRate, borrowRate: q.borrowRate,
        totalLent: str(tt?.lent ?? ZERO), totalBorrowed: str(tt?.borrowed ?? ZERO),
      });
    }
  }
  return { markets: out };
}

/** Resolves a public market id ("USDC-30d") or fails with the profile's not-found error. */
export function parseMarketId(engine: Engine, id: string): { asset: string; maturity: string } {
  for (const asset of engine.marketAssets()) {
    for (const maturity of engine.profile.markets.maturities) {
      if (marketId(engine.profile, asset, maturity) === id) return { asset, maturity };
    }
  }
  const e = engine.profile.errors.unknownRoute;
  throw new ApiError(e.code, `id: no market ${id}`, e.status);
}

function levels(sides: BookSide[], depth: number, better: (a: number, b: number) => boolean) {
  // Several markets merge into one ladder; each side is already sorted, so a k-way walk
  // that stops at `depth` distinct rates stays cheap.
  const iters = sides.map((s) => s.inOrder());
  const heads = iters.map((it) => it.next());
  const out: Array<{ rate: number; amount: Dec }> = [];
  for (;;) {
    let bi = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      if (!h.done && (bi < 0 || better(h.value.rate, (heads[bi] as IteratorYieldResult<{ rate: number }>).value.rate))) bi = i;
    }
    if (bi < 0) break;
    const o = (heads[bi] as IteratorYieldResult<{ rate: number; remaining: Dec }>).value;
    heads[bi] = iters[bi].next();
    const last = out[out.length - 1];
    if (last && last.rate === o.rate) last.amount = last.amount.plus(o.remaining);
    else {
      if (out.length === depth) break;
      out.push({ rate: o.rate, amount: o.remaining });
    }
  }
  return out.map((l) => ({ rate: l.rate, amount: str(l.amount) }));
}

export function orderBook(engine: Engine, asset: string, maturities: string[], depth: number) {
  const books = maturities.map((m) => engine.book(asset, m));
  return {
    lends: levels(books.map((b) => b.lends), depth, (a, b) => a < b),
    borrows: levels(books.map((b) => b.borrows), depth, (a, b) => a > b),
  };
}

// ---- analytics -------------------------------------------------------------------------

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS, m: 30 * DAY_MS, y: 365 * DAY_MS };

export function periodMs(engine: Engine, period: string | undefined): { period: string; ms: number } {
  // A (detected) profile that leaves the periods unknown: the sandbox serves its own.
  const p = period ?? engine.profile.markets.defaultPeriod ?? SPEC_EXAMPLE_PERIOD;
  const allowed = engine.profile.markets.periods ?? DEFAULT_PERIODS;
  const m = /^(\d+)([hdwmy])$/.exec(p);
  if (!allowed.includes(p) || !m) throw invalid('period', `must be one of ${allowed.join(', ')}`);
  return { period: p, ms: Number(m[1]) * UNIT_MS[m[2]] };
}

export function recordSnapshot(engine: Engine, now: number, force = false): void {
  const last = engine.db.prepare('SELECT MAX(ts_ms) FROM market_snapshots').pluck().get() as number | null;
  if (!force && last !== null && now - last < engine.config.snapshotEveryMs) return;
  const t = totals(engine);
  const ins = engine.db.prepare(
    'INSERT OR REPLACE INTO market_snapshots (ts_ms, asset, market, lend_rate, borrow_rate, total_lent, total_borrowed) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  engine.tx(() => {
    for (const asset of engine.marketAssets()) {
      for (const market of engine.profile.markets.maturities) {
        const q = engine.quote(asset, market);
        const tt = t.get(`${asset}|${market}`);
        ins.run(now, asset, market, q.lendRate, q.borrowRate, str(tt?.lent ?? ZERO), str(tt?.borrowed ?? ZERO));
      }
    }
  });
}

const MAX_POINTS = 200;
function thin<T>(points: T[]): T[] {
  if (points.length <= MAX_POINTS) return points;
  const step = Math.ceil(points.length / MAX_POINTS);
  return points.filter((_, i) => i % step === 0 || i === points.length - 1);
}

/** Total value locked in USD at oracle prices, from recorded snapshots plus the live value. */
export function tvlSeries(engine: Engine, period?: string) {
  const now = engine.now();
  const p = periodMs(engine, period);
  const rows = engine.db
    .prepare('SELECT ts_ms, asset, total_lent FROM market_snapshots WHERE ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms')
    .all(now - p.ms, now) as Array<{ ts_ms: number; asset: string; total_lent: string }>;
  const byTs = new Map<number, Dec>();
  for (const r of rows) byTs.set(r.ts_ms, (byTs.get(r.ts_ms) ?? ZERO).plus(new D(r.total_lent).mul(engine.price(r.asset))));
  let live = ZERO;
  for (const [k, v] of totals(engine)) live = live.plus(v.lent.mul(engine.price(k.split('|')[0])));
  byTs.set(now, live);
  const points = [...byTs].map(([ts, v]) => ({ timestamp: iso(ts), value: str(v.toDecimalPlaces(2, D.ROUND_DOWN)) }));
  return { metric: 'tvl', period: p.period, unit: 'USD', points: thin(points) };
}

/** Matched volume in USD per bucket (hours for a one-day period, days otherwise). */
export function volumeSeries(engine: Engine, period?: string) {
  const now = engine.now();
  const p = periodMs(engine, period);
  const bucket = p.ms <= DAY_MS ? 3_600_000 : DAY_MS;
  const start = now - p.ms;
  const rows = engine.db
    .prepare('SELECT ts_ms, asset, amount FROM fills WHERE ts_ms > ? AND ts_ms <= ?')
    .all(start, now) as Array<{ ts_ms: number; asset: string; amount: string }>;
  const n = Math.ceil(p.ms / bucket);
  const sums: Dec[] = Array.from({ length: n }, () => ZERO);
  for (const r of rows) {
    const i = Math.min(n - 1, Math.floor((r.ts_ms - start) / bucket));
    sums[i] = sums[i].plus(new D(r.amount).mul(engine.price(r.asset)));
  }
  const points = sums.map((v, i) => ({ timestamp: iso(start + i * bucket), value: str(v.toDecimalPlaces(2, D.ROUND_DOWN)) }));
  return { metric: 'volume', period: p.period, unit: 'USD', bucket: bucket === DAY_MS ? '1d' : '1h', points: thin(points) };
}

export function rateSeries(engine: Engine, q: { asset?: string; maturity?: string; period?: string }) {
  const now = engine.now();
  const p = periodMs(engine, q.period);
  const asset = q.asset ?? engine.marketAssets()[0];
  engine.requireMarketAsset('asset', asset);
  const maturity = q.maturity ?? engine.profile.lifecycle.defaultMaturity;
  if (!engine.profile.markets.maturities.includes(maturity)) {
    throw invalid('maturity', `no market for ${maturity}; markets are ${engine.profile.markets.maturities.join(', ')}`);
  }
  const rows = engine.db
    .prepare('SELECT ts_ms, lend_rate, borrow_rate FROM market_snapshots WHERE asset = ? AND market = ? AND ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms')
    .all(asset, maturity, now - p.ms, now) as Array<{ ts_ms: number; lend_rate: number; borrow_rate: number }>;
  const live = engine.quote(asset, maturity);
  const points = [
    ...rows.map((r) => ({ timestamp: iso(r.ts_ms), value: r.lend_rate, borrowRate: r.borrow_rate })),
    { timestamp: iso(now), value: live.lendRate, borrowRate: live.borrowRate },
  ];
  return { metric: 'rates', period: p.period, asset, maturity, points: thin(points) };
}

export function vaults(engine: Engine) {
  const t = totals(engine);
  return {
    vaults: engine.config.vaults.map((v) => ({
      id: v.id, name: v.name, asset: v.asset, maturity: v.maturity,
      apy: engine.quote(v.asset, v.maturity).lendRate,
      tvl: str(t.get(`${v.asset}|${v.maturity}`)?.lent ?? ZERO),
    })),
  };
}

export function vault(engine: Engine, id: string) {
  const v = vaults(engine).vaults.find((x) => x.id === id);
  if (!v) {
    const e = engine.profile.errors.unknownRoute;
    throw new ApiError(e.code, `id: no vault ${id}`, e.status);
  }
  return v;
}
