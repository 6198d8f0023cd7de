import { tradeAsset } from '../market/assets.ts';
import { cancelTries } from './orders.ts';
import { errorChoiceOf, errorText, ok, type Detector, type Probe, successOption } from '../probe.ts';
import { findId } from '../../conformance/body-id.ts';
import { probeAmount, probeWithdrawal } from './probe-amount.ts';
import { Decimal } from '../../contract/decimal.ts';

// Organic matching, as any partner would do it: a lend and a crossing borrow from two new
// users (funded by the target, as sandboxes do). Then the borrow is read (its
// autoRefinance default), a lend is repaid (the code for that), the borrow is repaid in
// full (its status after), and a withdrawal is made (its status and id field).

const MATCH_POLLS = 3;
const MATCH_POLL_MS = 1_000;
export const EVM_ADDRESS = '0x' + '5'.repeat(40);

export const lifecycleDetector: Detector = {
  name: 'organic match, repay and withdraw',
  options: [
    successOption('borrow.create'), successOption('position.repay'), successOption('user.withdraw'),
    'lifecycle.autoRefinanceDefault', 'lifecycle.repayOnLend', 'lifecycle.statusAfterFullRepay', 'lifecycle.cancellable', 'ids.repay', 'ids.withdrawal', 'ids.borrow',
  ],
  async run(p) {
    const m0 = p.fact<string[]>('maturities')?.[0] ?? '30d';
    const asset = tradeAsset(p);
    const lender = p.user('lender');
    const size = probeAmount(p, '100');
    const lend = await p.call('lend.create', { body: { userId: lender, asset, amount: size, rate: 0.01, maturity: m0 } });
    if (!ok(lend)) throw new Error(`a lend of ${size} ${asset} answered ${lend.status} ${errorText(lend).slice(0, 200)}`);
    const lendId = (lend.json as { positionId: string }).positionId;
    p.facts.set('matchedLend', { id: lendId, createdStatus: (lend.json as { status?: unknown }).status });
    const borrow = await borrowCrossing(p, asset, m0);
    p.set(successOption('borrow.create'), borrow.reply.status, 'high', [borrow.reply]);
    const borrowField = findId(borrow.reply.json, 'positionId') ?? findId(borrow.reply.json);
    const borrowId = borrowField?.value;
    if (!borrowId) throw new Error('the borrow answer names no position id');
    p.facts.set('collateralAsset', borrow.collateral);

    let pos = await p.call('position.get', { params: { positionId: borrowId } });
    // The borrow answer is not shown by the spec: the field that held an id the position reads back by.
    if (ok(pos)) p.set('ids.borrow', borrowField!.field, 'high', [borrow.reply, pos], `GET /positions/{${borrowField!.field}} read the new borrow back`);
    else p.miss('ids.borrow', `GET /positions/${borrowId} (from the borrow answer's ${borrowField!.field}) answered ${pos.status}`);
    for (let i = 1; i < MATCH_POLLS && ok(pos) && (pos.json as { status?: string }).status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, MATCH_POLL_MS));
      pos = await p.call('position.get', { params: { positionId: borrowId } });
    }
    const b = pos.json as { status?: string; autoRefinance?: unknown };
    if (typeof b?.autoRefinance === 'boolean') p.set('lifecycle.autoRefinanceDefault', b.autoRefinance, 'high', [pos], 'a borrow placed without autoRefinance');
    const matched = b?.status === 'active';
    p.facts.set('matched', matched);
    // Matched, the lend rests no more: it owes no cancel at the end (cleanup.ts); unmatched, it is cancelled then.
    if (matched) p.settled(lendId);

    const rl = await p.call('position.repay', { params: { positionId: lendId }, body: {} });
    const rlc = errorChoiceOf(rl);
    if (rlc) p.set('lifecycle.repayOnLend', rlc, 'high', [rl], 'repaying a lend position');
    else p.miss('lifecycle.repayOnLend', `repaying a lend answered ${rl.status}`);

    let repayable = matched;
    if (!matched) {
      for (const o of [successOption('position.repay'), 'lifecycle.statusAfterFullRepay', 'ids.repay']) {
        p.miss(o, `the crossing borrow was still ${b?.status ?? pos.status} after ${MATCH_POLLS} reads ${MATCH_POLL_MS} ms apart`);
      }
    } else {
      // Cancel the matched borrow: a target that takes it has active in lifecycle.cancellable (and nothing is left to repay).
      const ca = await p.call('position.cancel', { params: { positionId: borrowId } });
      cancelTries(p).push({ status: 'active', reply: ca });
      repayable = !ok(ca);
      if (ok(ca)) for (const o of [successOption('position.repay'), 'lifecycle.statusAfterFullRepay', 'ids.repay']) p.miss(o, 'the target cancelled the matched borrow, so there was nothing to repay');
    }
    if (repayable) {
      const rp = await p.call('position.repay', { params: { positionId: borrowId }, body: {} });
      if (ok(rp)) {
        p.set(successOption('position.repay'), rp.status, 'high', [rp]);
        const field = Object.entries((rp.json ?? {}) as Record<string, unknown>).find(([, v]) => v === borrowId)?.[0];
        if (field) p.set('ids.repay', field, 'high', [rp], 'the field holding the repaid position\'s id');
        const after = await p.call('position.get', { params: { positionId: borrowId } });
        const st = (after.json as { status?: unknown })?.status;
        if (ok(after) && typeof st === 'string') {
          p.set('lifecycle.statusAfterFullRepay', st, 'high', [rp, after]);
          cancelTries(p).push({ status: st, reply: await p.call('position.cancel', { params: { positionId: borrowId } }) });
        }
      } else p.miss('lifecycle.statusAfterFullRepay', `repaying the matched borrow in full answered ${rp.status} ${errorText(rp).slice(0, 160)}`);
    }

    cancellable(p);
    const wAmount = probeWithdrawal(p);
    const wd = await p.call('user.withdraw', { params: { userId: lender }, body: { asset, amount: wAmount, destination: p.fact<string>('destination') ?? EVM_ADDRESS } });
    if (ok(wd)) {
      p.set(successOption('user.withdraw'), wd.status, 'high', [wd]);
      const id = findId(wd.json, undefined, ['userId']);
      if (id) p.set('ids.withdrawal', id.field, 'high', [wd], 'the one field of the withdrawal named like an id');
    } else p.miss(successOption('user.withdraw'), `a withdrawal of ${wAmount} ${asset} answered ${wd.status} ${errorText(wd).slice(0, 160)}`);
  },
};

/**
 * The statuses a cancel was taken in. Only the statuses reached here are tried (pending,
 * active, cancelled, the one after full repay); matured and liquidated need time travel or
 * price moves, and a target that lets those be cancelled would not be seen.
 */
function cancellable(p: Probe): void {
  const tries = cancelTries(p);
  if (!tries.some((t) => t.status === 'pending')) return p.miss('lifecycle.cancellable', 'no pending position was cancelled');
  const taken = tries.filter((t) => ok(t.reply)).map((t) => t.status);
  const refused = tries.filter((t) => !ok(t.reply)).map((t) => `${t.status} (${t.reply.status})`);
  const full = tries.some((t) => t.status === 'active');
  p.set('lifecycle.cancellable', taken, full ? 'medium' : 'low', tries.map((t) => t.reply),
    `cancel taken for ${taken.join(', ') || 'none'}, refused for ${refused.join(', ') || 'none'}; matured and liquidated positions were not tried${full ? '' : ', nor an active one (no organic match)'}`);
}

/** A borrow crossing the lend above, with the first collateral the target takes. */
async function borrowCrossing(p: Probe, asset: string, maturity: string) {
  // Collateral for a borrow of 100 (the lend's size), scaled with it where the minimum order is larger.
  const size = probeAmount(p, '100');
  const scale = new Decimal(size).div(100);
  const amounts: Record<string, string> = { ETH: '1', WBTC: '0.1' };
  const known = p.fact<string[]>('collateralAssets') ?? ['ETH', 'WBTC', 'USDC', 'USDT', 'DAI'];
  const tries = known.filter((a) => a !== asset).map((a): [string, string] => [a, scale.times(amounts[a] ?? '1000').toFixed()]);
  let last;
  for (const [collateral, amount] of tries) {
    const r = await p.call('borrow.create', {
      body: { userId: p.user('borrower'), collateral: { asset: collateral, amount }, borrowAsset: asset, borrowAmount: size, rate: 0.02, maturity },
    });
    if (ok(r)) return { reply: r, collateral };
    last = r;
    if (!/collateral/.test(errorText(r))) break;
  }
  throw new Error(`no crossing borrow was taken: ${last?.status} ${last ? errorText(last).slice(0, 200) : ''}`);
}
