// Lenders and borrowers place crossing orders on several markets; measures order
// acceptance latency, time until the position is active (polled), and the error rate.
// Env: BASE_URL, API_KEY, TIER, SMOKE, ASSETS, MATURITIES, ORDER_AMOUNT, COLLATERAL(_AMOUNT).
import { sleep } from 'k6';
import { loadConfig } from './lib/config.ts';
import { call, expect429AsNormal, header, jsonOf } from './lib/http.ts';
import { matchingOptions, matchingPlan } from './lib/matching-options.ts';
import { matched, orderAccept, orderErrors, timeToMatch } from './lib/metrics.ts';
import { borrowBody, is2xx, iteration, lendBody, markets, positionIdOf, userId } from './lib/orders.ts';

const cfg = loadConfig();
const plan = matchingPlan(cfg);
export const options = matchingOptions(plan);
const books = markets(cfg, plan.marketCount);

expect429AsNormal();

/** Waits what a 429 asks for, bounded, so polling stays inside the tier. */
function backOff(retryAfter: string | undefined): void {
  sleep(Math.min(5, Math.max(plan.pollSeconds, Number(retryAfter) || 1)));
}

function place(side: 'lend' | 'borrow'): void {
  const n = iteration();
  const m = books[n % books.length];
  const user = userId(cfg, side === 'lend' ? 'lender' : 'borrower', n);
  const tags = { side };
  const t0 = Date.now();
  let res = call(cfg, side === 'lend'
    ? { endpoint: 'lend.create', name: '/lend', path: '/lend', method: 'POST', body: lendBody(cfg, user, m), tags }
    : { endpoint: 'borrow.create', name: '/borrow', path: '/borrow', method: 'POST', body: borrowBody(cfg, user, m), tags });
  for (let i = 0; i < 3 && res.status === 429; i++) {
    backOff(header(res, 'Retry-After'));
    res = call(cfg, side === 'lend'
      ? { endpoint: 'lend.create', name: '/lend', path: '/lend', method: 'POST', body: lendBody(cfg, user, m), tags }
      : { endpoint: 'borrow.create', name: '/borrow', path: '/borrow', method: 'POST', body: borrowBody(cfg, user, m), tags });
  }
  const id = positionIdOf(res);
  const ok = is2xx(res) && id !== undefined;
  orderErrors.add(!ok, tags);
  if (!ok) {
    console.warn(`${side}: expected 2xx with positionId / received ${res.status} ${String(res.body).slice(0, 160)}`);
    return;
  }
  orderAccept.add(res.timings.duration, tags);
  const deadline = t0 + plan.matchTimeoutSeconds * 1000;
  let status = String(jsonOf(res)?.status ?? '');
  while (status !== 'active' && Date.now() < deadline) {
    sleep(plan.pollSeconds);
    const r = call(cfg, { endpoint: 'position.get', name: '/positions/{positionId}', path: `/positions/${id}`, tags });
    if (r.status === 429) {
      backOff(header(r, 'Retry-After'));
      continue;
    }
    status = String(jsonOf(r)?.status ?? '');
  }
  const isActive = status === 'active';
  matched.add(isActive, tags);
  if (isActive) timeToMatch.add(Date.now() - t0, tags);
}

export function lender(): void {
  place('lend');
}

export function borrower(): void {
  place('borrow');
}
