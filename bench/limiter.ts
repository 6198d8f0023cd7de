// Cost of one rate-limit check, beside baselines measured in the same run:
//   empty   — a call to a function that does nothing (loop + call overhead)
//   map     — a Map get + set of a number (the least a stateful limiter must do)
// The limiter is measured on the allowed path (one hot key, time moving on), on the refused
// path (a drained bucket), and across 10 000 keys (client addresses). Figures are the
// median of 5 rounds; ratios are against the Map baseline.
// Run: node --import tsx bench/limiter.ts [iterations]

import { defaultProfile } from '../contract/index.ts';
import { GcraLimiter } from '../sandbox/limiter/gcra.ts';
import { publicRule, tierRule } from '../sandbox/limiter/rules.ts';

const N = Number(process.argv[2] ?? 2_000_000);
const ROUNDS = 5;

function nsPerOp(fn: (i: number) => unknown): number {
  const samples: number[] = [];
  let sink: unknown;
  for (let r = 0; r < ROUNDS + 1; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) sink = fn(i);
    const ns = Number(process.hrtime.bigint() - t0) / N;
    if (r > 0) samples.push(ns); // round 0 warms the JIT
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

const noop = (_i: number) => undefined;
const map = new Map<string, number>();
const mapOp = (i: number) => map.set('key:k1', (map.get('key:k1') ?? 0) + i);

const growth = tierRule(defaultProfile, 'growth');
const pub = publicRule(defaultProfile);
const hot = new GcraLimiter();
// 200 ms per request at growth: stepping time by 200 ms keeps every check allowed.
const allowed = (i: number) => hot.check('key:k1', growth, i * 200);
const drained = new GcraLimiter();
for (let i = 0; i < growth.capacity; i++) drained.check('key:k2', growth, 0);
const refused = (_i: number) => drained.check('key:k2', growth, 0);
const many = new GcraLimiter();
const addrs = Array.from({ length: 10_000 }, (_, i) => `addr:10.0.${i >> 8}.${i & 255}`);
const spread = (i: number) => many.check(addrs[i % addrs.length], pub, i);

const rows: Array<[string, number]> = [
  ['empty function (baseline)', nsPerOp(noop)],
  ['Map get+set (baseline)', nsPerOp(mapOp)],
  ['limiter check, allowed, one key', nsPerOp(allowed)],
  ['limiter check, refused, one key', nsPerOp(refused)],
  ['limiter check, 10 000 keys', nsPerOp(spread)],
];
const base = rows[1][1];
console.log(`rate limiter, ${N} checks per round, median of ${ROUNDS} rounds (node ${process.version})`);
for (const [name, ns] of rows) console.log(`${name.padEnd(34)} ${ns.toFixed(1).padStart(7)} ns/op   ${(ns / base).toFixed(2)}x Map`);
