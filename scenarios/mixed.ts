// A partner's realistic mix at a target rate inside its tier: reads, paginated lists,
// lends, borrows, repays, cancels, withdrawals, patches, market data and public data.
// setup() places the seed positions the read/repay/patch actions use; every action
// iteration builds its own ids from its iteration number. Every acknowledged write is
// recorded (lib/acks.ts) for the ledger audit that follows the run.
import { check, sleep } from 'k6';
import { Rate } from 'k6/metrics';
import { loadConfig } from './lib/config.ts';
import { call, callMany, expect429AsNormal, jsonOf, keyed, type Call, type Res } from './lib/http.ts';
import { mixedOptions, mixedPlan, PUBLIC_ENDPOINTS } from './lib/mixed-options.ts';
import { borrowBody, is2xx, iteration, lendBody, markets, positionIdOf, userId } from './lib/orders.ts';
import { ack } from './lib/acks.ts';

const cfg = loadConfig();
const plan = mixedPlan(cfg);
export const options = mixedOptions(plan);
const books = markets(cfg, cfg.assets.length * cfg.maturities.length);
const mixErrors = new Rate('mix_errors');

expect429AsNormal();

interface Seeds {
  user: string;
  lendId: string;
  borrowId?: string;
  borrowActive: boolean;
}

// MIXED_KEYS: keys of one partner to rotate over (bench/mixed.ts), so a benchmark beyond one
// key's tier is not capped by it; unset, every request goes out under API_KEY as before.
const mixedKeys = (__ENV.MIXED_KEYS || '').split(',').filter(Boolean);
let sent = 0;

function send(c: Call): Res {
  const rotate = mixedKeys.length > 0 && keyed(c) && c.key === undefined;
  const res = call(cfg, rotate ? { ...c, key: mixedKeys[sent++ % mixedKeys.length] } : c);
  const bad = !is2xx(res) && res.status !== 429;
  mixErrors.add(bad, { endpoint: c.endpoint });
  if (bad) console.warn(`${c.endpoint}: expected 2xx or 429 / received ${res.status} ${String(res.body).slice(0, 160)}`);
  return res;
}

export function setup(): Seeds {
  const m = books[0];
  const user = userId(cfg, 'seed', 0);
  const lend = placeLend(user, m);
  // The seed borrow crosses the seed lend, so it is active and can be repaid bit by bit.
  const borrow = send({ endpoint: 'borrow.create', body: borrowBody(cfg, user, m) });
  if (is2xx(borrow)) ack('borrow', { user, asset: m.asset, amount: cfg.orderAmount, id: positionIdOf(borrow, cfg.borrowIdField) });
  // A few more positions so the list has pages to follow.
  for (let i = 0; i < 3; i++) placeLend(user, m, cfg.restingRate);
  const lendId = positionIdOf(lend);
  const borrowId = positionIdOf(borrow, cfg.borrowIdField);
  if (!lendId) throw new Error(`setup: expected a seed lend / received ${lend.status} ${String(lend.body).slice(0, 160)}`);
  // The borrow answer is not shown by the spec: whether it is active is read from the position (shown).
  let active = false;
  for (let i = 0; i < 20 && borrowId && !active; i++) {
    if (i > 0) sleep(0.5);
    active = String(jsonOf(send({ endpoint: 'position.get', params: { positionId: borrowId } }))?.status) === 'active';
  }
  check(null, { 'the seed borrow became active, so it can be repaid': () => active });
  return { user, lendId, borrowId, borrowActive: active };
}

/** A lend order (lend.create), recorded when acknowledged. */
function placeLend(user: string, m: (typeof books)[number], rate?: number): Res {
  const res = send({ endpoint: 'lend.create', body: lendBody(cfg, user, m, rate) });
  if (is2xx(res)) ack('lend', { user, asset: m.asset, amount: cfg.orderAmount, id: positionIdOf(res) });
  return res;
}

export function readPosition(s: Seeds): void {
  send({ endpoint: 'position.get', params: { positionId: iteration() % 2 && s.borrowId ? s.borrowId : s.lendId } });
}

export function listPositions(s: Seeds): void {
  const first = send({ endpoint: 'positions.list', params: { userId: s.user }, query: { limit: 2 } });
  const page = jsonOf(first);
  check(first, { 'a list page has positions and hasMore': () => Array.isArray(page?.positions) && typeof page?.hasMore === 'boolean' });
  if (page?.hasMore && typeof page.nextCursor === 'string') {
    send({ endpoint: 'positions.list', params: { userId: s.user }, query: { limit: 2, cursor: page.nextCursor } });
  }
}

export function lend(): void {
  const n = iteration();
  placeLend(userId(cfg, 'mix-lender', n), books[n % books.length]);
}

export function borrow(): void {
  const n = iteration();
  const m = books[n % books.length];
  const user = userId(cfg, 'mix-borrower', n);
  const res = send({ endpoint: 'borrow.create', body: borrowBody(cfg, user, m) });
  if (is2xx(res)) ack('borrow', { user, asset: m.asset, amount: cfg.orderAmount, id: positionIdOf(res, cfg.borrowIdField) });
}

export function repay(s: Seeds): void {
  if (!s.borrowActive || !s.borrowId) return; // setup's check already failed and says why
  const res = send({ endpoint: 'position.repay', params: { positionId: s.borrowId }, body: { amount: '0.01' } });
  if (is2xx(res)) ack('repay', { user: s.user, asset: books[0].asset, amount: '0.01', id: s.borrowId });
}

export function cancel(): void {
  const n = iteration();
  const m = books[n % books.length];
  const user = userId(cfg, 'mix-canceller', n);
  const id = positionIdOf(placeLend(user, m, cfg.restingRate));
  if (!id) return;
  // Two cancels of the order at once: one succeeds, the other gets the profile's invalid-state
  // answer, and the order's funds come back once (the audit after the run checks the money).
  const answers = callMany(cfg, { endpoint: 'position.cancel', params: { positionId: id } }, 2, [cfg.invalidState.status]);
  for (const res of answers) {
    const refused = res.status === cfg.invalidState.status && String((jsonOf(res)?.error as { code?: unknown } | undefined)?.code) === cfg.invalidState.code;
    const bad = !is2xx(res) && res.status !== 429 && !refused;
    mixErrors.add(bad, { endpoint: 'position.cancel' });
    if (bad) console.warn(`position.cancel: expected 2xx, 429 or ${cfg.invalidState.status} ${cfg.invalidState.code} / received ${res.status} ${String(res.body).slice(0, 160)}`);
    if (is2xx(res)) ack('cancel', { user, asset: m.asset, amount: cfg.orderAmount, id });
  }
}

export function withdraw(): void {
  // Each withdrawal from a user of its own, so what it takes can be audited on its own.
  const user = userId(cfg, 'mix-withdrawer', iteration());
  const res = send({ endpoint: 'user.withdraw', params: { userId: user }, body: { asset: books[0].asset, amount: cfg.withdrawAmount, destination: cfg.destination } });
  if (is2xx(res)) ack('withdraw', { user, asset: books[0].asset, amount: cfg.withdrawAmount });
}

export function patch(s: Seeds): void {
  send({ endpoint: 'position.patch', params: { positionId: s.lendId }, body: { autoRollover: iteration() % 2 === 0 } });
}

export function rates(): void {
  send({ endpoint: 'rates.get', path: cfg.ratesPath });
}

export function orderbook(): void {
  const m = books[iteration() % books.length];
  send({ endpoint: 'orderbook.get', params: { asset: m.asset }, query: { maturity: m.maturity } });
}

export function publicData(): void {
  const n = iteration();
  const m = books[n % books.length];
  // Only the public order book has a path parameter; the others take none.
  send({ endpoint: PUBLIC_ENDPOINTS[n % PUBLIC_ENDPOINTS.length], params: { id: `${m.asset}${cfg.marketSeparator}${m.maturity}` } });
}
