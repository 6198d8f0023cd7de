import { setTimeout as sleep } from 'node:timers/promises';
import { Decimal } from '../../contract/decimal.ts';
import type { Reply } from '../../conformance/http.ts';
import { tradeAsset } from '../market/assets.ts';
import { errorChoiceOf, errorText, ok, type Detector, type Probe, successOption } from '../probe.ts';
import { probeAmount } from './probe-amount.ts';
import { probeRate, searchRateBound } from './rate-bound.ts';

// Lend orders nobody will take (a high rate below the target's bound, rate-bound.ts): their creation status and defaults, the list's
// order, over-max limit and last-page cursor, one position read, PATCH, and a cancel twice
// (the second gives the invalid-state code).

const DAY_MS = 86_400_000;

interface Created { positionId: string; maturity?: string; createdAt?: string; autoRollover?: unknown }

export const ordersDetector: Detector = {
  name: 'orders and lists',
  options: [
    successOption('lend.create'), successOption('position.get'), successOption('positions.list'),
    successOption('position.patch'), successOption('position.cancel'),
    'pagination.order', 'pagination.overMax', 'pagination.lastPageCursor', 'errors.invalidState',
    'lifecycle.autoRolloverAdvancedDefault', 'lifecycle.defaultMaturity', 'lifecycle.maturityDateResolution', 'cbt.amountBasis',
  ],
  async run(p) {
    const m0 = p.fact<string[]>('maturities')?.[0] ?? '30d';
    const asset = tradeAsset(p);
    const user = p.user('orders');
    // The rate bound first: a fixed resting rate may lie above it (issue 47).
    await searchRateBound(p);
    const DEAD_RATE = probeRate(p);
    const lend = (body: Record<string, unknown>) => p.call('lend.create', { body: { userId: user, asset, amount: probeAmount(p), rate: DEAD_RATE, ...body } });
    const r1 = await lend({ maturity: m0 });
    if (!ok(r1)) {
      p.facts.set('lendRefused', r1);
      throw new Error(`a lend of 10 ${asset} answered ${r1.status} ${errorText(r1).slice(0, 200)}`);
    }
    p.set(successOption('lend.create'), r1.status, 'high', [r1]);
    await nextTick(r1);
    const r2 = await lend({ mode: 'advanced' });
    await nextTick(r2);
    const r3 = await lend({ maturity: m0 });
    const [a, b, c] = [r1, r2, r3].map((r) => r.json as Created);
    p.facts.set('deadLend', b!.positionId);

    if (ok(r2)) {
      if (typeof b!.autoRollover === 'boolean') p.set('lifecycle.autoRolloverAdvancedDefault', b!.autoRollover, 'high', [r2], 'an advanced lend without autoRollover');
      const d = b!.maturity && b!.createdAt ? Math.round((Date.parse(b!.maturity) - Date.parse(b!.createdAt)) / DAY_MS) : Number.NaN;
      if (Number.isFinite(d)) p.set('lifecycle.defaultMaturity', `${d}d`, 'high', [r2], 'maturity − createdAt of a lend without maturity');
      else p.miss('lifecycle.defaultMaturity', 'the created lend has no maturity and createdAt to compare');
    } else p.miss('lifecycle.defaultMaturity', `an advanced lend without maturity answered ${r2.status}`);

    await listChecks(p, user, [a!.positionId, b!.positionId, c!.positionId]);

    const g = await p.call('position.get', { params: { positionId: a!.positionId } });
    if (ok(g)) {
      p.set(successOption('position.get'), g.status, 'high', [g]);
      const pos = g.json as { amount?: string; cbt?: { amount?: string } };
      if (pos.cbt?.amount !== undefined && pos.amount !== undefined) {
        p.set('cbt.amountBasis', new Decimal(pos.cbt.amount).eq(pos.amount) ? 'principal' : 'principal-plus-projected', 'high', [g], `cbt.amount ${pos.cbt.amount} against amount ${pos.amount} at a ${DEAD_RATE} rate`);
      }
    }
    const patch = await p.call('position.patch', { params: { positionId: a!.positionId }, body: { autoRollover: false } });
    if (ok(patch)) p.set(successOption('position.patch'), patch.status, 'high', [patch]);
    const cancel = await p.call('position.cancel', { params: { positionId: a!.positionId } });
    const tries = cancelTries(p);
    tries.push({ status: 'pending', reply: cancel });
    if (ok(cancel)) {
      p.set(successOption('position.cancel'), cancel.status, 'high', [cancel]);
      const again = await p.call('position.cancel', { params: { positionId: a!.positionId } });
      tries.push({ status: String((cancel.json as { status?: unknown } | undefined)?.status ?? 'cancelled'), reply: again });
      const e = errorChoiceOf(again);
      if (e) {
        p.set('errors.invalidState', e, 'high', [again], 'cancelling a cancelled position');
      }
      else p.miss('errors.invalidState', `a second cancel answered ${again.status}`);
    } else p.miss('errors.invalidState', `cancelling a fresh pending lend answered ${cancel.status}`);

    // An ISO date a few days past the first market: the nearest market takes it, an exact-market target refuses it.
    const date = new Date(Date.now() + (Number.parseInt(m0, 10) + 3) * DAY_MS).toISOString().slice(0, 10);
    const md = await p.call('lend.create', { body: { userId: p.user('mdate'), asset, amount: probeAmount(p), rate: probeRate(p), maturity: date } });
    if (ok(md)) p.set('lifecycle.maturityDateResolution', 'nearest-market', 'medium', [md], `maturity ${date} (3 days past ${m0}) was taken`);
    else if (errorChoiceOf(md) && /maturity/.test(errorText(md))) p.set('lifecycle.maturityDateResolution', 'exact-market', 'medium', [md], `maturity ${date} (3 days past ${m0}) was refused`);
    else p.miss('lifecycle.maturityDateResolution', `a lend with maturity ${date} answered ${md.status}`);
  },
};

/** Cancels tried, by the status the position was in: lifecycle.cancellable is the taken ones. */
export function cancelTries(p: Probe): Array<{ status: string; reply: Reply }> {
  let t = p.fact<Array<{ status: string; reply: Reply }>>('cancelTries');
  if (!t) p.facts.set('cancelTries', (t = []));
  return t;
}

async function listChecks(p: Probe, user: string, created: string[]): Promise<void> {
  const list = (query: { limit: number; cursor?: string }) => p.call('positions.list', { params: { userId: user }, query });
  const page1 = await list({ limit: 2 });
  if (!ok(page1)) return p.miss('pagination.order', `the list answered ${page1.status}`);
  p.set(successOption('positions.list'), page1.status, 'high', [page1]);
  const ids = ((page1.json as { positions?: Array<{ positionId?: string }> }).positions ?? []).map((x) => x.positionId);
  const asc = created.slice(0, 2);
  const desc = created.slice().reverse().slice(0, 2);
  if (same(ids, asc)) p.set('pagination.order', 'created-asc', 'high', [page1], 'the first page holds the first two of three lends');
  else if (same(ids, desc)) p.set('pagination.order', 'created-desc', 'high', [page1], 'the first page holds the last two of three lends');
  else p.miss('pagination.order', `first page ${JSON.stringify(ids)} is neither creation order nor its reverse of ${JSON.stringify(created)}`);
  const cursor = (page1.json as { nextCursor?: unknown }).nextCursor;
  if (typeof cursor === 'string') {
    const page2 = await list({ limit: 2, cursor });
    lastPage(p, page2);
  } else p.miss('pagination.lastPageCursor', 'the first of two pages gave no nextCursor');
  const over = await list({ limit: 101 });
  if (ok(over)) p.set('pagination.overMax', 'clamp', 'high', [over], 'limit 101 was answered');
  else if (errorChoiceOf(over) && /limit/.test(errorText(over))) p.set('pagination.overMax', 'reject', 'high', [over], 'limit 101 was refused naming limit');
  else p.miss('pagination.overMax', `limit 101 answered ${over.status}`);
}

function lastPage(p: Probe, r: Reply): void {
  const body = r.json as Record<string, unknown> | undefined;
  if (!ok(r) || !body || body.hasMore !== false) return p.miss('pagination.lastPageCursor', `the second page answered ${r.status} hasMore ${String(body?.hasMore)}`);
  if (!('nextCursor' in body)) p.set('pagination.lastPageCursor', 'omit', 'high', [r], 'the last page has no nextCursor');
  else if (body.nextCursor === null) p.set('pagination.lastPageCursor', 'null', 'high', [r], 'the last page has nextCursor null');
  else p.miss('pagination.lastPageCursor', `the last page has nextCursor ${JSON.stringify(body.nextCursor)}`);
}

/**
 * Waits past the resolution of the target's createdAt, so the three lends have distinct
 * creation times: within one tick a target may order ties any way (lendcheck's sandbox by
 * id), and the list order could not be read. Bounded: 2 ms, or 1.1 s for whole seconds.
 */
async function nextTick(r: Reply): Promise<void> {
  const t = (r.json as Created | undefined)?.createdAt;
  await sleep(typeof t === 'string' && /T\d\d:\d\d:\d\d\.\d*[1-9]/.test(t) ? 2 : 1_100);
}

const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
