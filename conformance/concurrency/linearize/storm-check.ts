import type { Profile } from '../../../contract/index.ts';
import { CheckSkip, fail, pass, type Check, type CheckContext } from '../../check.ts';
import type { Exchanges, TimedExchange } from '../exchanges.ts';
import { accepted, field, HISTORY_KEY } from '../storm.ts';
import { timeline } from '../timeline.ts';
import { checkLedger } from './ledger/check-ledger.ts';
import { eventualReads } from '../funds.ts';

// The judge of the run's storms: every history the storm checks recorded (storm.ts keeps each
// under its check's id) is checked for linearizability against the ledger model, and the judge
// sends no request of its own (issue 48: its own storm of 23 requests repeated races the storms
// beside it already run). The storms record what pins them: a check's fixture (the lend its
// cancels race on) and its funds read before and after (the insufficient_funds details of a
// withdrawal beyond any balance, or the search's lends), so overdrafts, double refunds and lost
// flags show as a history no order explains. Any correct service passes: an answer is judged
// only by whether some order of the operations, consistent with real time, explains all of them.

/** Kinds that move money the ledger model of histories does not read: a history holding one is not judged (its funds would move unseen). */
const UNREAD_MONEY = new Set<string>(['borrow.create', 'position.repay']);

export interface Recorded {
  check: string;
  history: Exchanges;
}

/** Every history the run recorded, with the check that recorded it. */
export function recordedHistories(ctx: Pick<CheckContext, 'shared'>): Recorded[] {
  return [...ctx.shared.entries()].filter(([k]) => k.startsWith(HISTORY_KEY)).flatMap(([k, v]) => (v as Exchanges[]).map((history) => ({ check: k.slice(HISTORY_KEY.length), history })));
}

const positionOf = (ex: TimedExchange) => ex.request.ids.positionId;
const created = (ex: TimedExchange) => (ex.kind === 'lend.create' && accepted(ex) ? field<string>(ex, 'positionId') : undefined);

/**
 * What of a history the model can judge soundly, or why none of it. Reads and PATCHes of a
 * position whose create the history does not hold (a resting borrow, another check's order) are
 * left out: they move no money and nothing else in the history knows the position. A cancel of
 * one, or a borrow or repay, would move money unseen: the history is not judged.
 */
export function judgeable(history: Exchanges): { ops: Exchanges } | { reason: string } {
  const money = history.find((ex) => UNREAD_MONEY.has(ex.kind));
  if (money) return { reason: `it holds ${money.request.method} ${money.kind}, which moves money the ledger model of histories does not read` };
  const known = new Set(history.map(created).filter((id): id is string => typeof id === 'string'));
  const foreignCancel = history.find((ex) => ex.kind === 'position.cancel' && !known.has(positionOf(ex) ?? ''));
  if (foreignCancel) return { reason: `it cancels ${positionOf(foreignCancel)}, whose create it does not hold (the refund would move funds unseen)` };
  return { ops: history.filter((ex) => !((ex.kind === 'position.get' || ex.kind === 'position.patch') && !known.has(positionOf(ex) ?? ''))) };
}

/**
 * Whether maturity or expiry may fall inside a history: yes unless the target's own clock (the
 * latest `createdAt` of a lend answered after the history ended, in any history of the run) is
 * before every maturity the history's lends were given.
 */
export function mayClose(history: Exchanges, all: Recorded[]): boolean {
  const end = Math.max(...history.map((ex) => ex.complete ?? Number.POSITIVE_INFINITY));
  const later = all.flatMap((r) => r.history).filter((ex) => accepted(ex) && ex.kind === 'lend.create' && ex.invoke >= end);
  const now = Math.max(...later.map((ex) => Date.parse(String(field(ex, 'createdAt') ?? ''))).filter(Number.isFinite));
  if (!Number.isFinite(now)) return true;
  return !history.filter((ex) => ex.kind === 'lend.create' && accepted(ex)).every((ex) => Date.parse(String(field(ex, 'maturity') ?? '')) > now);
}

export async function judgeHistories(ctx: CheckContext) {
  const eventual = eventualReads(ctx.profile);
  if (eventual) throw new CheckSkip(eventual);
  const all = recordedHistories(ctx).filter((r) => r.history.length);
  if (!all.length) throw new CheckSkip('no storm of this run was recorded: this check judges the histories the concurrency storms record, so it runs with them (e.g. --only "concurrency.*")', 'not-observed');
  const notes: string[] = [];
  let judged = 0;
  let operations = 0;
  for (const { check, history } of all) {
    const j = judgeable(history);
    if ('reason' in j) {
      notes.push(`${check}: its history of ${history.length} operations was not judged: ${j.reason}`);
      continue;
    }
    const spontaneousClose = mayClose(history, all);
    const t0 = performance.now();
    const v = checkLedger(j.ops, { profile: ctx.profile, spontaneousClose });
    if (v.inconclusive) {
      notes.push(`${check}: the search over ${v.operations} operations ran out of its budget (${v.steps} steps) before deciding; no verdict on it`);
      continue;
    }
    if (!v.linearizable) {
      const w = v.witness!;
      ctx.note(`history of the storm (${history.length} operations, recorded by ${check}):\n${timeline(history)}`);
      fail(`overlapping requests on one user behave as one-at-a-time requests in some order real time allows (the storm of ${check})`, `an order of the ${v.operations} operations, consistent with real time, that the ledger model allows`, `${w.summary}\n\n${w.text}\n\n(search: ${v.steps} steps in ${Math.round(performance.now() - t0)} ms)`);
    }
    if (!v.operations) continue;
    judged++;
    operations += v.operations;
    notes.push(`${check}: ${v.operations} operations linearizable (${v.ignored.length} not read by the model${spontaneousClose ? '; maturity or expiry not ruled out, so open positions could close on their own' : ''}; ${v.steps} search steps)`);
  }
  if (!judged) throw new CheckSkip(`none of the ${all.length} recorded histories held operations the ledger model could judge: ${notes.join('; ')}`, 'not-observed');
  return pass({ notes: [`${judged} of ${all.length} recorded histories judged, ${operations} operations in all, with no request of this check's own`, ...notes] });
}

export function linearizeChecks(_profile: Profile): Check[] {
  return [
    {
      id: 'concurrency.linearizable-ledger',
      title: 'every storm the run recorded (lends, withdrawals, cancels, PATCHes and reads on one user, with its funds read before and after) is linearizable against the ledger model',
      requirements: ['LEDGER-linearizable', 'LEDGER-conserved', 'ERR-insufficient_funds', 'STATE-cancel-unmatched', 'EP-cancel', 'EP-withdraw', 'EP-patch'],
      needs: ['write'],
      // After the storms whose histories it judges (phase main).
      phase: 'late',
      judgesRun: true,
      run: judgeHistories,
    },
  ];
}
