import type { Reply } from '../../conformance/http.ts';
import { advance, controlsOf, NO_CONTROLS } from '../controls.ts';
import { cancelTries } from './orders.ts';
import { ok, type Detector } from '../probe.ts';

// The lifecycle table (lifecycle.transitions) from the moves detection saw: a lend matched
// (pending → active), cancels taken, a borrow repaid in full and one liquidated, and, on
// the test clock, the matched lend reaching its maturity. Statuses no move left are
// terminal. A move the probes never try (e.g. from matured onwards) would not be seen, so
// the table is reported only when every one of those moves was seen, at medium confidence.

export const transitionsDetector: Detector = {
  name: 'lifecycle table (test clock)',
  options: ['lifecycle.transitions'],
  async run(p) {
    const lend = p.fact<{ id: string; createdStatus?: unknown }>('matchedLend');
    if (!(await controlsOf(p))) return p.miss('lifecycle.transitions', `${NO_CONTROLS}: maturity needs time travel and liquidation a price move`);
    if (!lend) return p.miss('lifecycle.transitions', 'no lend was matched');
    const moves: Array<[string, string]> = [];
    const evidence: Reply[] = [];
    const before = await p.call('position.get', { params: { positionId: lend.id } });
    const b = before.json as { status?: unknown; maturity?: unknown } | undefined;
    if (!ok(before) || typeof b?.status !== 'string' || typeof b.maturity !== 'string') throw new Error(`reading the matched lend answered ${before.status}`);
    if (typeof lend.createdStatus === 'string' && lend.createdStatus !== b.status) moves.push([lend.createdStatus, b.status]);
    evidence.push(before, await advance(p, (Date.parse(b.maturity) - Date.now()) / 1000 + 86_400));
    const after = await p.call('position.get', { params: { positionId: lend.id } });
    const st = (after.json as { status?: unknown } | undefined)?.status;
    if (ok(after) && typeof st === 'string' && st !== b.status) moves.push([b.status, st]);
    evidence.push(after);
    for (const t of cancelTries(p).filter((c) => ok(c.reply))) {
      const to = (t.reply.json as { status?: unknown } | undefined)?.status;
      if (typeof to === 'string') moves.push([t.status, to]);
    }
    const active = 'active';
    for (const o of ['lifecycle.statusAfterFullRepay', 'lifecycle.statusAfterLiquidation']) {
      const f = p.found.get(o);
      if (f && typeof f.value === 'string') moves.push([active, f.value]);
    }
    const seen = new Set(moves.map(([f, t]) => `${f}>${t}`));
    const lacking = [
      !seen.has('pending>active') && 'a match (pending → active)',
      !(ok(after) && st !== b.status) && 'a maturity',
      !cancelTries(p).some((c) => ok(c.reply)) && 'a cancel',
      !p.found.has('lifecycle.statusAfterFullRepay') && 'a full repay',
      !p.found.has('lifecycle.statusAfterLiquidation') && 'a liquidation',
    ].filter(Boolean);
    if (lacking.length) return p.miss('lifecycle.transitions', `not every move was seen (${5 - lacking.length} of 5); missing ${lacking.join(', ')}`);
    const table: Record<string, string[]> = {};
    for (const [f, t] of moves) {
      const to = (table[f] ??= []);
      if (!to.includes(t)) to.push(t);
      table[t] ??= [];
    }
    p.set('lifecycle.transitions', table, 'medium', evidence, `moves seen: ${[...seen].join(', ').replaceAll('>', ' → ')}; moves from a status onwards that no probe tries would not be seen`);
  },
};
