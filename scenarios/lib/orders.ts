// Order bodies and markets for the matching and mixed scenarios. Every identifier is
// derived from the iteration's own number (unique across execution segments), so no
// iteration depends on another's state.
import exec from 'k6/execution';
import { jsonOf, type Res } from './http.ts';
import type { LoadConfig } from './config.ts';
import { positionIdIn } from '../../contract/body-id.ts';

export interface Market {
  asset: string;
  maturity: string;
}

export function markets(cfg: LoadConfig, count: number): Market[] {
  const all: Market[] = [];
  for (const maturity of cfg.maturities) for (const asset of cfg.assets) all.push({ asset, maturity });
  return all.slice(0, Math.max(1, Math.min(count, all.length)));
}

/** The iteration's number across the whole test, segments included. */
export const iteration = (): number => exec.scenario.iterationInTest;

export function userId(cfg: LoadConfig, role: string, n: number = iteration()): string {
  return `${role}-${cfg.runId}-${n}`;
}

/** A lend at `rate` and a borrow whose maximum rate is at or above it cross. */
export const LEND_RATE = 0.05;
export const BORROW_MAX_RATE = 0.06;

export function lendBody(cfg: LoadConfig, user: string, m: Market, rate = LEND_RATE): Record<string, unknown> {
  return { userId: user, asset: m.asset, amount: cfg.orderAmount, rate, maturity: m.maturity };
}

export function borrowBody(cfg: LoadConfig, user: string, m: Market): Record<string, unknown> {
  return {
    userId: user,
    collateral: { asset: cfg.collateralAsset, amount: cfg.collateralAmount },
    borrowAsset: m.asset,
    borrowAmount: cfg.orderAmount,
    rate: BORROW_MAX_RATE,
    maturity: m.maturity,
  };
}

/**
 * The new position's id in an order's answer: a lend's names positionId (spec); a borrow's is not
 * shown, so its id is where the profile says (ids.borrow), else found as every suite finds it.
 */
export function positionIdOf(res: Res, named?: string): string | undefined {
  return positionIdIn(jsonOf(res), named || undefined);
}

export const is2xx = (res: Res): boolean => res.status >= 200 && res.status < 300;
