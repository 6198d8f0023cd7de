// Lenders and borrowers place crossing orders on several markets, spread over a key pool
// (lends of one partner fill borrows of another); measures order acceptance latency,
// time-to-match and the match ratio, per market. Time-to-match runs from the order's
// acknowledgement to the receipt of its signed position.matched event, read back from
// lendcheck's receiver (RECEIVER_URL); without one it falls back to polling the position,
// whose interval is then the measurement's floor.
// Env: BASE_URL, API_KEY or POOL_KEYS/POOL_PARTNERS/POOL_SLOTS, RECEIVER_URL, TIER, SMOKE,
// ORDERS_PER_SECOND, ASSETS, MATURITIES, ORDER_AMOUNT, COLLATERAL(_AMOUNT), TTM_P99_MS.
import http from 'k6/http';
import { sleep } from 'k6';
import { loadConfig } from './lib/config.ts';
import { call, expect429AsNormal, header, jsonOf } from './lib/http.ts';
import { marketTag, matchingOptions, matchingPlan } from './lib/matching-options.ts';
import { matched, orderAccept, orderErrors, timeToMatch } from './lib/metrics.ts';
import { borrowBody, is2xx, iteration, lendBody, markets, positionIdOf, userId, type Market } from './lib/orders.ts';
import { loadPool, pairKeys } from './lib/pool.ts';
import { ack } from './lib/acks.ts';

const cfg = loadConfig();
const pool = loadPool(cfg.apiKey);
const plan = matchingPlan(cfg, pool.keys.length);
const books = markets(cfg, plan.marketCount);
export const options = matchingOptions(plan, books.map(marketTag));

expect429AsNormal();
const observedStatuses = http.expectedStatuses(200, 204, 404);

export function setup(): void {
  console.log(plan.matchBy === 'webhooks'
    ? `time-to-match: from each order's acknowledgement to its signed position.matched event at lendcheck's receiver; ${pool.keys.length} key(s)`
    : `time-to-match: by polling GET /positions/{id} every ${plan.pollSeconds * 1000} ms, so no figure is finer than that floor; ${pool.keys.length} key(s)`);
}

/** Waits what a 429 asks for, bounded, so polling stays inside the tier. */
function backOff(retryAfter: string | undefined): void {
  sleep(Math.min(5, Math.max(plan.pollSeconds, Number(retryAfter) || 1)));
}

function order(side: 'lend' | 'borrow', user: string, m: Market, keyIndex: number, metricTags: Record<string, string>) {
  const key = pool.keys[keyIndex];
  // pool_key (an index, never the key) lets the run check each key's rate against its tier.
  const tags = { ...metricTags, pool_key: String(keyIndex) };
  return call(cfg, side === 'lend'
    ? { endpoint: 'lend.create', body: lendBody(cfg, user, m), tags, key }
    : { endpoint: 'borrow.create', body: borrowBody(cfg, user, m), tags, key });
}

/** Tells the receiver this order's acknowledgement time; its matched event is joined to it there. */
function expectMatch(id: string, ackMs: number, tags: Record<string, string>): void {
  const r = http.post(`${plan.receiverUrl}expect`, JSON.stringify({ subject: id, type: 'position.matched', ackMs, tag: tags.market }), {
    headers: { 'content-type': 'application/json' }, tags: { ...tags, endpoint: 'receiver.observed', name: '/expect' }, responseCallback: observedStatuses,
  });
  if (r.status !== 204) console.warn(`receiver: expected 204 for /expect / received ${r.status}`);
}

/** Webhooks: every order's time-to-match, read back from the receiver once the arrivals are in. */
export function teardown(): void {
  if (plan.matchBy !== 'webhooks') return;
  const r = http.get(`${plan.receiverUrl}expectations?waitMs=${plan.matchTimeoutSeconds * 1000}`, {
    tags: { endpoint: 'receiver.observed', name: '/expectations' }, timeout: `${plan.matchTimeoutSeconds + 10}s`, responseCallback: observedStatuses,
  });
  const list = (() => {
    try {
      return JSON.parse(String(r.body)) as Array<{ tag: string; ms: number | null }>;
    } catch {
      return [];
    }
  })();
  for (const e of list) {
    const tags = { market: e.tag };
    matched.add(e.ms !== null, tags);
    if (e.ms !== null) timeToMatch.add(e.ms, tags);
  }
}

function byPolling(id: string, ackMs: number, firstStatus: string, key: string, tags: Record<string, string>): number | undefined {
  const deadline = ackMs + plan.matchTimeoutSeconds * 1000;
  let status = firstStatus;
  while (status !== 'active' && Date.now() < deadline) {
    sleep(plan.pollSeconds);
    const r = call(cfg, { endpoint: 'position.get', params: { positionId: id }, tags, key });
    if (r.status === 429) {
      backOff(header(r, 'Retry-After'));
      continue;
    }
    status = String(jsonOf(r)?.status ?? '');
  }
  return status === 'active' ? Date.now() - ackMs : undefined;
}

function place(side: 'lend' | 'borrow'): void {
  const n = iteration();
  const m = books[n % books.length];
  const keys = pairKeys(pool, n);
  const keyIndex = side === 'lend' ? keys.lend : keys.borrow;
  const key = pool.keys[keyIndex];
  const user = userId(cfg, side === 'lend' ? 'lender' : 'borrower', n);
  const tags = { side, market: marketTag(m) };
  let res = order(side, user, m, keyIndex, tags);
  for (let i = 0; i < 3 && res.status === 429; i++) {
    backOff(header(res, 'Retry-After'));
    res = order(side, user, m, keyIndex, tags);
  }
  const ackMs = Date.now();
  const id = positionIdOf(res, side === 'borrow' ? cfg.borrowIdField : undefined);
  const ok = is2xx(res) && id !== undefined;
  orderErrors.add(!ok, tags);
  if (!ok) {
    console.warn(`${side}: expected 2xx with the new position's id / received ${res.status} ${String(res.body).slice(0, 160)}`);
    return;
  }
  orderAccept.add(res.timings.duration, tags);
  ack(side, { user, asset: m.asset, amount: cfg.orderAmount, id, key: String(keyIndex) });
  if (plan.matchBy === 'webhooks') return expectMatch(id, ackMs, tags);
  const ttm = byPolling(id, ackMs, String(jsonOf(res)?.status ?? ''), key, tags);
  matched.add(ttm !== undefined, tags);
  if (ttm !== undefined) timeToMatch.add(ttm, tags);
}

export function lender(): void {
  place('lend');
}

export function borrower(): void {
  place('borrow');
}
