import { BookSide } from '../sandbox/engine/book.ts';
import { createSandbox } from '../sandbox/app.ts';
import { D } from '../sandbox/money/money.ts';

// Matching cost against book depth, in-process. Two layers:
//  - the book alone (sorted-btree): insert one order and take the best, at depth n;
//  - the engine: a crossing borrow that fills against the best resting lend, through the
//    SQLite transaction and ledger, at depth n.
// If cost grows as log n, going from 1k to 100k multiplies it by about log(1e5)/log(1e3) ≈ 1.67;
// if it grew as n, by 100. The ratio printed is the measured one.
// Usage: node --import tsx bench/matching.ts [--json FILE]

const DEPTHS = [1_000, 100_000];

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function bookOps(depth: number, ops = 200_000): number {
  const side = new BookSide('lend');
  let seq = 0;
  const rate = () => 0.01 + ((seq * 7919) % 10_000) / 100_000;
  for (let i = 0; i < depth; i++, seq++) side.add({ positionId: `p${seq}`, seq, rate: rate(), remaining: new D(1) });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ops; i++, seq++) {
    side.add({ positionId: `p${seq}`, seq, rate: rate(), remaining: new D(1) });
    const best = side.best()!;
    side.remove(best);
  }
  return Number(process.hrtime.bigint() - t0) / ops;
}

async function engineOrders(depth: number, orders = 2_000) {
  const sb = createSandbox({ plugins: [], liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false, startingFunds: { USDC: '1000000000', ETH: '1000000' } });
  const partner = 'partner_a';
  const t0 = performance.now();
  for (let i = 0; i < depth; i++) {
    // Lenders rest at spread-out minimum rates, so the book really is `depth` deep.
    sb.engine.lend(partner, { userId: `lender_${i % 50}`, asset: 'USDC', amount: '1', rate: 0.02 + (i % 5_000) / 100_000, maturity: '30d', mode: 'advanced' });
  }
  const fillMs = performance.now() - t0;
  const lat: number[] = [];
  const t1 = performance.now();
  for (let i = 0; i < orders; i++) {
    // One new resting lend behind the others per measured borrow keeps the book `depth` deep.
    sb.engine.lend(partner, { userId: `lender_${i % 50}`, asset: 'USDC', amount: '1', rate: 0.2, maturity: '30d', mode: 'advanced' });
    const s = performance.now();
    const row = sb.engine.borrow(partner, { userId: `borrower_${i % 50}`, collateral: { asset: 'ETH', amount: '0.001' }, borrowAsset: 'USDC', borrowAmount: '1', rate: 0.5, maturity: '30d' });
    lat.push(performance.now() - s);
    if (i === 0 && sb.engine.row(row.id)?.status !== 'active') throw new Error('the crossing borrow did not match: the benchmark would measure resting, not matching');
  }
  const secs = (performance.now() - t1) / 1000;
  const resting = sb.engine.book('USDC', '30d').lends.size;
  if (resting !== depth) throw new Error(`book depth drifted to ${resting}; expected ${depth}`);
  await sb.close();
  return { depth, fillSeconds: +(fillMs / 1000).toFixed(1), ordersPerSec: Math.round(orders / secs), p50Ms: +percentile(lat, 50).toFixed(3), p99Ms: +percentile(lat, 99).toFixed(3), restingAfter: resting };
}

const book = DEPTHS.map((d) => ({ depth: d, nsPerInsertAndTakeBest: Math.round(bookOps(d)) }));
const engine = [];
for (const d of DEPTHS) engine.push(await engineOrders(d));
const growth = (a: number, b: number) => +(b / a).toFixed(2);
const out = {
  book,
  engine,
  growth1kTo100k: {
    book: growth(book[0]!.nsPerInsertAndTakeBest, book[1]!.nsPerInsertAndTakeBest),
    engineP50: growth(engine[0]!.p50Ms, engine[1]!.p50Ms),
    engineThroughput: growth(engine[1]!.ordersPerSec, engine[0]!.ordersPerSec),
    ifLogN: +(Math.log(1e5) / Math.log(1e3)).toFixed(2),
    ifN: 100,
  },
};
console.log(JSON.stringify(out, null, 2));
const i = process.argv.indexOf('--json');
if (i > 0) (await import('node:fs')).writeFileSync(process.argv[i + 1]!, JSON.stringify(out, null, 2));
