import { Decimal } from '../../../contract/decimal.ts';
import type { Profile } from '../../../contract/index.ts';
import { CheckSkip, unaffordable, fail, pass, type Check, type CheckContext } from '../../check.ts';
import { fundedUser, lendBody, validAddress } from '../../checks/fixtures.ts';
import type { TimedExchange } from '../exchanges.ts';
import { accepted, field, Recorder } from '../storm.ts';
import { checkLedger } from './ledger/check-ledger.ts';
import { account } from '../../ledger-model/operations.ts';
import { balanceControl, eventualReads, fromProbe, probeBody, type Learned } from '../funds.ts';

// A mixed storm on one user, recorded as a history and checked for linearizability: lends
// that together over-commit the funds, withdrawals beside them, two cancels and a PATCH racing
// on each accepted lend, and reads of every position; then the same largest-order probe that
// opened the run, so the final funds are pinned and conservation is part of the check. Any
// correct service passes: every answer is judged only by whether some order of the operations,
// consistent with real time, explains all of them.

const ASSET = 'USDC';

/**
 * Two withdrawals at once, then four lends at once, each pair and each four over-committing what
 * is left: withdrawals of 55 % each (one fits) when the user is the check's own, of 1 % when it is
 * a pre-funded user the profile names, whose money a withdrawal takes for good; then lends of a
 * third of what one correct withdrawal leaves (three fit, the fourth cannot, whatever the order).
 */
function amountsFor(profile: Profile, available: Decimal | undefined, own: boolean): { lend: string; withdraw: string; overCommits: boolean } {
  const places = Math.min(profile.assets.info[ASSET]?.decimals ?? 6, 2);
  const minOrder = new Decimal(profile.amounts.minOrder);
  const minWd = new Decimal(profile.amounts.minWithdrawal);
  const floor = (x: Decimal) => x.toDecimalPlaces(places, Decimal.ROUND_DOWN);
  if (!available) return { lend: floor(minOrder.mul(3)).toFixed(), withdraw: minWd.toFixed(), overCommits: false };
  const withdraw = Decimal.max(minWd, floor(available.mul(own ? '0.55' : '0.01')));
  const lend = Decimal.min(floor(available.minus(withdraw).mul('0.3')), new Decimal(profile.amounts.maxOrder));
  if (lend.lt(minOrder) || withdraw.gt(available)) {
    throw new CheckSkip(`the user holds ${available.toFixed()} ${ASSET}, too little for a storm of orders of at least ${profile.amounts.minOrder}`);
  }
  return { lend: lend.toFixed(), withdraw: withdraw.toFixed(), overCommits: true };
}

export async function ledgerStorm(ctx: CheckContext) {
  const eventual = eventualReads(ctx.profile);
  if (eventual) throw new CheckSkip(eventual);
  const user = await fundedUser(ctx, 'linearize');
  const rec = new Recorder(ctx);
  const lend = (client: number, amount: string) => rec.call(client, { kind: 'lend.create', body: { ...lendBody(ctx, user), asset: ASSET, amount } });
  const probe = () => rec.call(0, { kind: 'lend.create', body: probeBody(ctx, user, ASSET) });

  // What the user holds at the start, and how it was learned.
  let start: Learned;
  if (ctx.hasControls) start = { available: await balanceControl(ctx, user, ASSET), via: 'the sandbox balances control' };
  else {
    const first = await probe();
    start = fromProbe(ctx, first, ASSET);
    if (accepted(first)) await rec.call(0, { kind: 'position.cancel', ids: { positionId: String(field(first, 'positionId')) } });
  }
  const amounts = amountsFor(ctx.profile, start.available, ctx.hasControls || !ctx.profile.funding.userIds.length);
  const dest = validAddress(ctx.profile);

  // Phase 1: two withdrawals at once; then four lends at once. Each group waits for room for all of it.
  await rec.together(2, 'two withdrawals at once', () => Promise.all([0, 1].map((c) => rec.call(c, { kind: 'user.withdraw', ids: { userId: user }, body: { asset: ASSET, amount: amounts.withdraw, destination: dest } }))));
  const phase1 = await rec.together(4, 'four lends at once', () => Promise.all([0, 1, 2, 3].map((c) => lend(c, amounts.lend))));
  const ids = phase1.filter((o) => accepted(o)).map((o) => String(field(o, 'positionId')));
  // Phase 2: on each accepted lend, two cancels and a read at once; a PATCH on the first.
  let client = 0;
  await rec.together(ids.length * 3 + (ids.length ? 1 : 0), 'cancels, reads and a PATCH at once', () =>
    Promise.all(
      ids.flatMap((id) => [
        rec.call(client++, { kind: 'position.cancel', ids: { positionId: id } }),
        rec.call(client++, { kind: 'position.cancel', ids: { positionId: id } }),
        rec.call(client++, { kind: 'position.get', ids: { positionId: id } }),
      ]).concat(ids.length ? [rec.call(client++, { kind: 'position.patch', ids: { positionId: ids[0]! }, body: { autoRollover: false } })] : []),
    ),
  );
  // Phase 3: every position read again, and the funds pinned by the probe.
  await rec.together(ids.length, 'the reads of every position', () => Promise.all(ids.map((id, i) => rec.call(i, { kind: 'position.get', ids: { positionId: id } }))));
  const last = await probe();
  if (accepted(last)) await rec.call(0, { kind: 'position.cancel', ids: { positionId: String(field(last, 'positionId')) } });
  // A last small order reads the target's own clock (its createdAt): when it is before every
  // maturity of the storm, nothing could have expired or matured meanwhile.
  const clock = await lend(0, new Decimal(ctx.profile.amounts.minOrder).toFixed());
  if (accepted(clock)) await rec.call(0, { kind: 'position.cancel', ids: { positionId: String(field(clock, 'positionId')) } });
  const targetNow = Date.parse(String(field(clock, 'createdAt') ?? ''));
  const maturities = rec.history.filter((o) => o.kind === 'lend.create' && accepted(o)).map((o) => Date.parse(String(field(o, 'maturity') ?? '')));
  const spontaneousClose = !(Number.isFinite(targetNow) && maturities.every((m) => Number.isFinite(m) && m > targetNow));

  const t0 = performance.now();
  const verdict = checkLedger(rec.history, { profile: ctx.profile, spontaneousClose, ...(start.available ? { start: { [account(1, user)]: { [ASSET]: start.available.toFixed() } } } : {}) });
  const count = (pred: (o: TimedExchange) => boolean) => rec.history.filter(pred).length;
  const notes = [
    `${rec.history.length} operations by up to ${client} concurrent clients: ${count(accepted)} accepted, ${count((o) => !!o.response && !accepted(o) && o.response.status !== 429)} refused, ${count((o) => o.response?.status === 429)} answered 429 (not accepted: a race needing them to overlap is not seen), ${count((o) => !o.response)} unanswered`,
    `funds at the start: ${start.available ? `${start.available.toFixed()} ${ASSET}` : 'unknown'}, via ${start.via}${start.reason ? ` (${start.reason})` : ''}`,
    amounts.overCommits ? `two withdrawals of ${amounts.withdraw} ${ASSET} at once, then four lends of ${amounts.lend} at once, each over-commit the funds` : `orders of ${amounts.lend} ${ASSET}: the funds are unknown, so over-commitment was not exercised`,
    spontaneousClose ? 'maturity or expiry could not be ruled out during the storm: the model let open positions close on their own' : 'no maturity fell inside the storm (the target\'s clock, read from a last order, was before every one)',
    `search: ${verdict.steps} steps in ${Math.round(performance.now() - t0)} ms`,
    ...(ids.length ? [] : [`no lend was accepted (the first answered ${phase1[0]!.response?.status ?? 'nothing'}), so no cancel raced: the withdrawals and the funds were checked`]),
  ];
  if (verdict.inconclusive) throw unaffordable(`the linearizability search over ${verdict.operations} operations ran out of its budget (${verdict.steps} steps) before deciding; no verdict`);
  if (!verdict.linearizable) {
    const w = verdict.witness!;
    fail('overlapping requests on one user behave as one-at-a-time requests in some order real time allows', `an order of the ${verdict.operations} operations, consistent with real time, that the ledger model allows`, `${w.summary}\n\n${w.text}\n\n(search: ${verdict.steps} steps in ${Math.round(performance.now() - t0)} ms)`);
  }
  return pass({ notes });
}

export function linearizeChecks(_profile: Profile): Check[] {
  return [
    {
      id: 'concurrency.linearizable-ledger',
      title: 'a storm of lends, withdrawals, cancels, PATCHes and reads on one user is linearizable against the ledger model',
      requirements: ['LEDGER-linearizable', 'LEDGER-conserved', 'ERR-insufficient_funds', 'STATE-cancel-unmatched', 'EP-cancel', 'EP-withdraw', 'EP-patch'],
      needs: ['write'],
      run: ledgerStorm,
    },
  ];
}
