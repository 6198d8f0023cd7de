import { controls } from '../contract/index.ts';
import type { Reply } from '../conformance/http.ts';
import { ok, type Probe } from './probe.ts';

// lendcheck's sandbox controls (/v1/sandbox/*), where a target has them: the test clock and
// the oracle let detection see what otherwise needs a day of real time or a market move.
// A target "has controls" when GET /sandbox/clock answers a clock; asked once.

export interface Controls { timeScale: number; clock: Reply }

export async function controlsOf(p: Probe): Promise<Controls | undefined> {
  if (p.facts.has('controls')) return p.fact<Controls | undefined>('controls');
  const r = await p.call('sandbox.clock');
  const c = ok(r) ? controls.clockResponse.safeParse(r.json) : undefined;
  const found = c?.success ? { timeScale: c.data.timeScale, clock: r } : undefined;
  p.facts.set('controls', found);
  return found;
}

/** Why an option needing controls was not read, when the target has none. */
export const NO_CONTROLS = 'the target has no sandbox controls (GET /sandbox/clock gave no clock)';

export async function advance(p: Probe, seconds: number): Promise<Reply> {
  const r = await p.call('sandbox.clock.advance', { body: { seconds: Math.max(1, Math.ceil(seconds)) } });
  if (!ok(r)) throw new Error(`advancing the test clock ${seconds} s answered ${r.status}`);
  return r;
}

export async function setPrice(p: Probe, asset: string, priceUsd: string): Promise<Reply> {
  const r = await p.call('sandbox.oracle', { body: { asset, priceUsd } });
  if (!ok(r)) throw new Error(`setting the ${asset} oracle price to ${priceUsd} answered ${r.status}`);
  return r;
}
