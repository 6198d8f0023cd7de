import { Decimal } from '../../contract/decimal.ts';
import fc from 'fast-check';
import { show, type CheckContext } from '../check.ts';
import { profileGap, refusesFloor, validAddress } from '../checks/fixtures.ts';
import { restingRateNow } from '../checks/resting-rate.ts';
import type { Reply } from '../http.ts';
import { orderMaturity, resolveCall, type PartnerEndpointId } from '../../contract/index.ts';
import type { Call } from '../call.ts';
import { amountOf, repayPart, walkCollateral } from './amounts.ts';
import { showFunds } from '../ledger-model/funds.ts';
import type { LedgerInput, LedgerOutput } from '../ledger-model/operations.ts';
import { fundsOf } from '../ledger-model/state.ts';
import { amountProblem, apply, fundsIn, open, overPrecise, positions, statusOf, type WalkModel } from './model.ts';
import { positionIdIn } from '../body-id.ts';
import { refusedForState } from '../invalid-state.ts';

// The walk's commands, fast-check style (fc.commands): each checks that it applies to the
// model, runs against the target, checks the answer's shape, and steps the ledger model
// (conformance/ledger-model/, through model.ts apply()) with what the answer means: the model
// allows it, or says why not.
// After each, the funds the target lets us learn are compared with the model's to the last
// unit. A command that finds a broken rule throws a WalkBreak; fast-check then shrinks the
// sequence to the shortest one that still breaks it.

/** The funds of each asset asked that the target lets us learn (undefined: not learnable), in one read where it can. */
export type FundsSource = (assets: readonly string[]) => Promise<Record<string, Decimal | undefined>>;

export interface Real {
  ctx: CheckContext;
  userId: string;
  /** The asset lent, borrowed and withdrawn (lendable and borrowable). */
  asset: string;
  /** The funds the target lets us learn (undefined: not learnable). */
  funds: FundsSource;
  /** The steps taken, by name (a step whose check() refused it is not run). */
  taken: string[];
  /**
   * Shared by every run of one check: once the target rate-limits the walk, or its time budget
   * runs out (`budget`), the rest stop at once.
   */
  limited: { seen?: string; budget?: boolean };
  /** performance.now() past which the walk takes no further step (its whole time budget). */
  deadline?: number;
}

export class WalkBreak extends Error {
  override name = 'WalkBreak';
}

/** The target answered 429 even after the client waited once: not a broken rule, but the walk cannot go on. */
export class RateLimited extends Error {
  override name = 'RateLimited';
}

/**
 * The walk's time budget ran out. It stops the walk exactly as a lasting 429 does (hence a
 * RateLimited), but the skip must not claim a 429 the target may never have sent.
 */
export class BudgetSpent extends RateLimited {
  override name = 'BudgetSpent';
}

/** The error that stops a run once the walk has been stopped, of the kind that stopped it. */
export const stopped = (limited: Real['limited']): RateLimited => (limited.budget ? new BudgetSpent(limited.seen) : new RateLimited(limited.seen));

/** A request of the walk; a 429 (after the client's one wait and retry) stops the walk, never fails it. */
async function call<Id extends PartnerEndpointId>(r: Real, id: Id, input: Call<Id>): Promise<Reply> {
  // The walk's own messages name the request as sent (method and path), from the table.
  const { method, path } = resolveCall(r.ctx.profile, id, (input as { params?: Record<string, string> }).params);
  // A target slowed by its rate limit (a 429 waited out and retried on every request) would
  // hold the walk past the suite's timeout: past its budget it stops, like a lasting 429.
  if (!r.limited.seen && r.deadline !== undefined && performance.now() > r.deadline) {
    r.limited.seen = `it stopped before ${method} ${path}: the target answered too slowly, or held requests back with 429s`;
    r.limited.budget = true;
  }
  if (r.limited.seen) throw stopped(r.limited);
  const rep = await (r.ctx.call as (id: Id, input: Call<Id>) => Promise<Reply>)(id, input);
  if (rep.status === 429) {
    r.limited.seen = `${method} ${path} answered 429 after one wait`;
    throw new RateLimited(r.limited.seen);
  }
  return rep;
}

const broken = (what: string, expected: string, received: string): never => {
  throw new WalkBreak(`${what}: expected ${expected} / received ${received}`);
};

const code = (r: Reply) => (r.json as { error?: { code?: unknown } } | undefined)?.error?.code;
const ok = (r: Reply) => r.status >= 200 && r.status < 300;
const got = (r: Reply) => `${r.status} ${show(r.json ?? r.text)}`;
const body = (r: Reply) => (r.json && typeof r.json === 'object' ? (r.json as Record<string, unknown>) : {});

/**
 * `value`, answered in `rep`, as an exact amount of `asset`: not a decimal string breaks the
 * spec's rule; more places than the profile gives the asset is the profile's gap (assets.info:
 * a detected file may keep a default the target does not follow), a skip naming it.
 */
function exactAmount(r: Real, rep: Reply, what: string, asset: string, value: unknown): Decimal {
  const prob = amountProblem(value);
  if (prob) broken(what, `an exact ${asset} amount`, prob);
  const over = overPrecise(r.ctx.profile, asset, value as string);
  if (over) profileGap(r.ctx, 'assets.info', rep, `${what}: ${over}`);
  return new Decimal(value as string);
}

/**
 * A refusal of an amount for its decimal places: the target's decimals are not the profile's
 * (assets.info). Not "decimal" alone: a valid decimal string refused as "not a decimal" is a fault.
 */
const refusesPlaces = (rep: Reply) => rep.status >= 400 && rep.status < 500 && code(rep) !== 'insufficient_funds' && /decimal places|\bdecimals\b|\bprecision\b/i.test(show(body(rep).error));

/** One operation and its answer through the ledger model; its reason, with the answer, when the model allows neither. */
function step(m: WalkModel, input: LedgerInput, output: LedgerOutput, rep: Reply): void {
  const why = apply(m, input, output);
  if (why) throw new WalkBreak(`${why} (received ${got(rep)})`);
}

/**
 * A request that takes `amount` of `asset` from the user's funds: accepted or refused as insufficient_funds, as the ledger model allows (exactly when the funds
 * suffice, where the model holds them exactly), its details (when given) naming the model's funds and the amount. A refusal below the target's floor: the profile's gap.
 */
function expectDebit(m: WalkModel, r: Real, what: string, i: Extract<LedgerInput, { kind: 'withdraw' | 'lend' | 'borrow' }>, asset: string, amount: Decimal, rep: Reply, positionId?: string): boolean {
  if (refusesPlaces(rep)) profileGap(r.ctx, 'assets.info', rep, `${what}: an amount of at most two decimal places was refused for its places`);
  if (i.kind !== 'borrow' && refusesFloor(rep)) profileGap(r.ctx, i.kind === 'withdraw' ? 'amounts.minWithdrawal' : 'amounts.minOrder', rep, `${what}: refused below the target's floor`);
  if (ok(rep)) {
    step(m, i, { outcome: { kind: 'ok' }, ...(positionId !== undefined ? { positionId } : {}), ...(i.kind === 'lend' ? { autoRollover: false } : {}) }, rep);
    if (positionId !== undefined) m.ids.push(positionId);
    return true;
  }
  if (code(rep) !== 'insufficient_funds') broken(what, `a 2xx, or 400 insufficient_funds (the model holds ${showFunds(fundsOf(m.state, m.account, asset))} ${asset})`, got(rep));
  const d = (body(rep).error as { details?: { available?: unknown; required?: unknown } }).details;
  const available = d?.available === undefined ? undefined : exactAmount(r, rep, `${what}: insufficient_funds details.available`, asset, d.available).toFixed();
  if (d?.required !== undefined && !(typeof d.required === 'string' && new Decimal(d.required).eq(amount))) broken(`${what}: insufficient_funds details.required`, amount.toFixed(), show(d.required));
  step(m, i, { outcome: { kind: 'insufficient', ...(available !== undefined ? { available } : {}) } }, rep);
  return false;
}

async function readPosition(r: Real, id: string, asset: string, what: string): Promise<Record<string, unknown>> {
  const rep = await call(r, 'position.get', { params: { positionId: id } });
  if (!ok(rep)) broken(`${what}: GET /positions/${id}`, 'a 2xx with the position', got(rep));
  const b = body(rep);
  for (const k of ['amount', 'accruedInterest', 'projectedReturn'] as const) {
    if (b[k] === undefined) continue;
    exactAmount(r, rep, `${what}: the position's ${k}`, asset, b[k]);
  }
  return b;
}

/**
 * A read of position `id`, through the ledger model: what it shows (status, amount, flag) must
 * be a state the position can be in, and a move it shows carries its money (a borrow matched
 * credits what it borrowed, an order expired gives back what it held, a lend matured pays
 * principal and the accruedInterest it shows, unless it rolled over).
 */
async function learn(m: WalkModel, r: Real, id: string, what: string, b?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const p = m.state.pos[id]!;
  b ??= await readPosition(r, id, p.asset, what);
  if (p.type === 'lend' && open(p) && statusOf(String(b.status)) === 'closed' && typeof b.accruedInterest !== 'string') {
    broken(`${what}: a matured lend's accruedInterest`, 'the interest it earned, a decimal string', show(b.accruedInterest));
  }
  const out: LedgerOutput = { outcome: { kind: 'ok' }, status: String(b.status) };
  if (typeof b.autoRollover === 'boolean' && p.type === 'lend') out.autoRollover = b.autoRollover;
  if (typeof b.amount === 'string') out.amount = b.amount;
  if (typeof b.accruedInterest === 'string') out.accruedInterest = b.accruedInterest;
  const why = apply(m, { kind: 'read', account: m.account, id }, out);
  if (why) throw new WalkBreak(`${what}: ${why} (read ${show(b)})`);
  return b;
}

/**
 * After each command: the funds read and compared with the model's. A target that matches on its
 * own (a liquidity provider) may match a pending borrow at any moment, all the more while a 429
 * holds the walk, and the funds then move without the model: so where they disagree, the pending
 * borrows are read before anything is concluded. A status only moves forward, so a borrow still
 * pending when read after the funds was pending when they were read: those funds are compared.
 * One that moved is learned, and the funds are read again (a few times at most). Funds that agree
 * need no read to explain them (a borrow matched unseen is learned when a step reads or refuses
 * it): the borrows are read on a disagreement only, not every step (issue 48).
 */
async function settle(m: WalkModel, r: Real, what: string): Promise<void> {
  const pending = () => positions(m).filter((x) => x.type === 'borrow' && x.status === 'pending');
  for (let round = 0; ; round++) {
    const wanted = m.assets.map((a) => [a, fundsIn(m, a)] as const).filter((x): x is readonly [string, Decimal] => x[1] !== undefined);
    const have = wanted.length ? await r.funds(wanted.map(([a]) => a)) : {};
    const off = wanted.find(([a, want]) => have[a] !== undefined && !have[a]!.eq(want));
    if (!off) return;
    let moved = false;
    for (const p of pending()) {
      const b = await readPosition(r, p.id, p.asset, what);
      if (statusOf(String(b.status)) !== p.status) moved = true;
      await learn(m, r, p.id, what, b);
    }
    if (moved && round < 3) continue;
    const [asset, want] = off;
    const got = have[asset]!;
    broken(`after ${what}, the available ${asset}`, `${want.toFixed()} (the model)`, `${got.toFixed()} (${got.minus(want).abs().toFixed()} ${got.gt(want) ? 'more: money appeared' : 'less: money vanished'})`);
  }
}

export type Cmd = fc.AsyncCommand<WalkModel, Real>;

export class Lend implements Cmd {
  constructor(readonly units: number) {}
  check = () => true;
  async run(m: WalkModel, r: Real) {
    r.taken.push(this.toString());
    const amount = amountOf(r.ctx.profile, r.asset, r.ctx.profile.amounts.minOrder, this.units);
    const what = `lend ${amount.toFixed()} ${r.asset}`;
    // The run's resting rate (checks/resting-rate.ts), never a fixed 0.5: a correct target bound below it refuses every lend (mutator seed 12).
    const rep = await call(r, 'lend.create', { body: { userId: r.userId, asset: r.asset, amount: amount.toFixed(), rate: restingRateNow(r.ctx), maturity: orderMaturity(r.ctx.profile), autoRollover: false } });
    const b = body(rep);
    if (ok(rep)) {
      if (typeof b.positionId !== 'string') broken(what, 'a positionId', got(rep));
      if (!exactAmount(r, rep, `${what}: the amount answered`, r.asset, b.amount).eq(amount)) broken(`${what}: the amount answered`, amount.toFixed(), String(b.amount));
    }
    expectDebit(m, r, what, { kind: 'lend', account: m.account, asset: r.asset, amount: amount.toFixed() }, r.asset, amount, rep, ok(rep) ? (b.positionId as string) : undefined);
    await settle(m, r, what);
  }
  toString = () => `lend(${this.units})`;
}

export class Withdraw implements Cmd {
  constructor(readonly units: number) {}
  check = () => true;
  async run(m: WalkModel, r: Real) {
    r.taken.push(this.toString());
    const amount = amountOf(r.ctx.profile, r.asset, r.ctx.profile.amounts.minWithdrawal, this.units);
    const what = `withdraw ${amount.toFixed()} ${r.asset}`;
    const rep = await call(r, 'user.withdraw', { params: { userId: r.userId }, body: { asset: r.asset, amount: amount.toFixed(), destination: validAddress(r.ctx.profile) } });
    expectDebit(m, r, what, { kind: 'withdraw', account: m.account, asset: r.asset, amount: amount.toFixed() }, r.asset, amount, rep);
    await settle(m, r, what);
  }
  toString = () => `withdraw(${this.units})`;
}

export class Borrow implements Cmd {
  constructor(readonly units: number) {}
  check = () => true;
  async run(m: WalkModel, r: Real) {
    r.taken.push(this.toString());
    const amount = amountOf(r.ctx.profile, r.asset, r.ctx.profile.amounts.minOrder, this.units);
    const collateral = walkCollateral(r.ctx.profile, r.asset, amount);
    const what = `borrow ${amount.toFixed()} ${r.asset} against ${collateral.amount} ${collateral.asset}`;
    const rep = await call(r, 'borrow.create', { body: { userId: r.userId, collateral, borrowAsset: r.asset, borrowAmount: amount.toFixed(), rate: 0.01, maturity: orderMaturity(r.ctx.profile), autoRefinance: false } });
    // The borrow answer is not shown by the spec: its id is found, or named by profile ids.borrow.
    const id = ok(rep) ? positionIdIn(body(rep), r.ctx.profile.ids.borrow) : undefined;
    if (ok(rep) && typeof id !== 'string') broken(what, `the new position's id (${r.ctx.profile.ids.borrow ?? 'positionId, or one field named like an id'})`, got(rep));
    const i = { kind: 'borrow', account: m.account, asset: r.asset, amount: amount.toFixed(), collateral } as const;
    expectDebit(m, r, what, i, collateral.asset, new Decimal(collateral.amount), rep, id as string | undefined);
    await settle(m, r, what);
  }
  toString = () => `borrow(${this.units})`;
}

const pick = <T>(xs: T[], k: number): T | undefined => (xs.length ? xs[k % xs.length] : undefined);
const pendings = (m: Readonly<WalkModel>) => positions(m).filter((p) => p.status === 'pending');

export class Cancel implements Cmd {
  constructor(readonly k: number) {}
  check = (m: Readonly<WalkModel>) => pendings(m).length > 0;
  async run(m: WalkModel, r: Real) {
    r.taken.push(this.toString());
    const p = pick(pendings(m), this.k)!;
    const what = `cancel ${p.type} ${p.id}`;
    const rep = await call(r, 'position.cancel', { params: { positionId: p.id } });
    const i = { kind: 'cancel', account: m.account, id: p.id } as const;
    if (ok(rep)) step(m, i, { outcome: { kind: 'ok' } }, rep);
    else {
      if (!refusedForState(r.ctx, rep)) broken(what, 'a 2xx, or the invalid-state error if it was matched meanwhile', got(rep));
      // The read first: a refusal's cause (a match, an expiry) is seen before it is applied.
      await learn(m, r, p.id, what);
      step(m, i, { outcome: { kind: 'invalid-state' } }, rep);
    }
    await settle(m, r, what);
  }
  toString = () => `cancel(${this.k})`;
}

const openLends = (m: Readonly<WalkModel>) => positions(m).filter((x) => x.type === 'lend' && open(x));
export class Patch implements Cmd {
  constructor(readonly k: number, readonly autoRollover: boolean) {}
  check = (m: Readonly<WalkModel>) => openLends(m).length > 0;
  async run(m: WalkModel, r: Real) {
    r.taken.push(this.toString());
    const p = pick(openLends(m), this.k)!;
    const what = `PATCH ${p.id} autoRollover ${this.autoRollover}`;
    const rep = await call(r, 'position.patch', { params: { positionId: p.id }, body: { autoRollover: this.autoRollover } });
    const i = { kind: 'patch', account: m.account, id: p.id, flags: { autoRollover: this.autoRollover } } as const;
    if (ok(rep)) step(m, i, { outcome: { kind: 'ok' } }, rep);
    else {
      if (!refusedForState(r.ctx, rep)) broken(what, 'a 2xx on an open position', got(rep));
      await learn(m, r, p.id, what);
      step(m, i, { outcome: { kind: 'invalid-state' } }, rep);
    }
    await settle(m, r, what);
  }
  toString = () => `patch(${this.k}, ${this.autoRollover})`;
}

export class Read implements Cmd {
  constructor(readonly k: number) {}
  check = (m: Readonly<WalkModel>) => m.ids.length > 0;
  async run(m: WalkModel, r: Real) {
    r.taken.push(this.toString());
    const p = pick(positions(m), this.k)!;
    const what = `read ${p.type} ${p.id}`;
    await learn(m, r, p.id, what);
    await settle(m, r, what);
  }
  toString = () => `read(${this.k})`;
}

const activeBorrows = (m: Readonly<WalkModel>) => positions(m).filter((x) => x.type === 'borrow' && x.status === 'active');
export class Repay implements Cmd {
  constructor(readonly k: number, readonly full: boolean) {}
  check = (m: Readonly<WalkModel>) => activeBorrows(m).length > 0;
  async run(m: WalkModel, r: Real) {
    r.taken.push(this.toString());
    const p = pick(activeBorrows(m), this.k)!;
    const part = repayPart(r.ctx.profile, p.asset, new Decimal(p.amount).minus(p.repaid ?? 0));
    // Too little left to repay in part (a repay of all of it is the full repay): a step that does nothing.
    if (!this.full && !part) return;
    const full = this.full || !part;
    const what = full ? `repay ${p.id} in full` : `repay ${part.toFixed()} ${p.asset} of ${p.id}`;
    const rep = await call(r, 'position.repay', { params: { positionId: p.id }, body: full ? {} : { amount: part.toFixed() } });
    if (refusesPlaces(rep)) profileGap(r.ctx, 'assets.info', rep, `${what}: an amount of at most two decimal places was refused for its places`);
    if (!ok(rep)) broken(what, 'a 2xx: the borrow is active and the user holds what it borrowed', got(rep));
    const i = { kind: 'repay', account: m.account, id: p.id, ...(full ? {} : { amount: part.toFixed() }) } as const;
    if (!full) step(m, i, { outcome: { kind: 'ok' } }, rep);
    else {
      // What a full repay takes: principal and interest accrued to the repay (the closed
      // position shows it), less what partial repays paid; then the read must show it closed.
      const b = await readPosition(r, p.id, p.asset, what);
      if (typeof b.accruedInterest !== 'string') broken(`${what}: accruedInterest`, 'a decimal string', show(b.accruedInterest));
      step(m, i, { outcome: { kind: 'ok' }, accruedInterest: b.accruedInterest as string }, rep);
      await learn(m, r, p.id, `${what}: the position after it`, b);
    }
    await settle(m, r, what);
  }
  toString = () => `repay(${this.k}, ${this.full ? 'full' : 'part'})`;
}

/** Moves the sandbox clock: a few seconds (unfilled orders get the liquidity provider) or past maturity. */
export class Clock implements Cmd {
  constructor(readonly step: 'fill' | 'maturity') {}
  check = (m: Readonly<WalkModel>) => m.clock;
  async run(m: WalkModel, r: Real) {
    r.taken.push(this.toString());
    const days = Number.parseInt(orderMaturity(r.ctx.profile), 10);
    const seconds = this.step === 'fill' ? 10 : (days + 1) * 86_400;
    const what = `clock +${this.step === 'fill' ? '10 s' : `${days + 1} d`}`;
    const rep = await call(r, 'sandbox.clock.advance', { body: { seconds } });
    if (!ok(rep)) broken(what, 'the clock control to answer 2xx', got(rep));
    for (const p of positions(m).filter(open)) await learn(m, r, p.id, what);
    await settle(m, r, what);
  }
  toString = () => `clock(${this.step})`;
}

export function commandArbs(): Array<fc.Arbitrary<Cmd>> {
  const units = fc.integer({ min: 1, max: 40 });
  const k = fc.nat({ max: 7 });
  return [
    units.map((u) => new Lend(u)),
    units.map((u) => new Lend(u)),
    units.map((u) => new Withdraw(u)),
    units.map((u) => new Borrow(u)),
    k.map((x) => new Cancel(x)),
    k.map((x) => new Cancel(x)),
    fc.tuple(k, fc.boolean()).map(([x, b]) => new Patch(x, b)),
    k.map((x) => new Read(x)),
    fc.tuple(k, fc.boolean()).map(([x, b]) => new Repay(x, b)),
    fc.constantFrom('fill' as const, 'maturity' as const).map((s) => new Clock(s)),
  ];
}

/**
 * A fixed tour through every command, run before the random walks so that each kind of step is
 * taken on every run whatever the seed: a lend and a borrow placed, the lend's flag changed and
 * read back, the lend cancelled, the borrow matched (clock), repaid in part and in full, a
 * withdrawal, and a second lend matched and carried past maturity (clock). Without the clock,
 * its clock steps are skipped (and with them what needs a match), and so is that second lend.
 */
export const tour = (clock = true): Cmd[] => [
  new Lend(5),
  new Borrow(2),
  new Patch(0, true),
  new Read(0),
  new Cancel(0),
  new Withdraw(3),
  new Clock('fill'),
  new Repay(0, false),
  new Repay(0, true),
  // The lend the clock carries past maturity: without a clock, a second lend like the first.
  ...(clock ? [new Lend(7)] : []),
  new Clock('fill'),
  new Clock('maturity'),
  new Read(1),
];
