import { Decimal } from '../../contract/decimal.ts';
import fc from 'fast-check';
import { collateralFor, controls, type Profile } from '../../contract/index.ts';
import { CheckSkip, expectShape, unaffordable, fail, pass, type Check, type CheckContext } from '../check.ts';
import { fund, fundedUser, pairAsset, restingRateFor } from '../checks/fixtures.ts';
import { eventualReads, probeBody } from '../concurrency/funds.ts';
import { BudgetSpent, commandArbs, RateLimited, stopped, tour, WalkBreak, type Cmd, type FundsSource, type Real } from './commands.ts';
import { walkModel, type WalkModel } from './model.ts';

// Model-based random walks (fast-check's fc.commands and asyncModelRun) over one user's
// ledger: sequences of lends, borrows, cancels, repays, withdrawals, PATCHes, reads and, where
// the target has the sandbox clock, clock steps; every answer and every learnable balance is
// checked against the ledger model the linearizability checker uses too (model.ts). A failure is shrunk by fast-check to the shortest sequence that
// still breaks the rule, and shown with the seed that replays it (the run's --seed).

/**
 * The bounds of one walk: a few seconds against the sandbox. The fixed tour takes every kind of
 * step on every run; two random walks (five spent about 50 requests more a run) still catch each
 * sequential money fault alone on seeds 1 to 3 (walk.test.ts), and 8 steps no longer did (issue 48).
 * Without the sandbox clock one random walk of up to 6 steps follows the tour: there every step
 * costs a second request (the funds are learned from a lend refused as insufficient_funds), no
 * clock or repay step can be taken, and the tour alone catches both money faults (walk.test.ts);
 * two walks of up to 12 spent about 16 requests of a partner's run, up to 24 (issue 48).
 */
export const WALK = { numRuns: 2, numRunsWithoutClock: 1, maxCommands: 12, maxCommandsWithoutClock: 6, timeLimitMs: 20_000, tour: true, budgetMs: 60_000 };

/** The funds of `asset` from a lend of the largest order (insufficient_funds details), without controls. */
async function probeFunds(ctx: CheckContext, userId: string, asset: string): Promise<Decimal | undefined> {
  const r = await ctx.call('lend.create', { body: probeBody(ctx, userId, asset) });
  const err = (r.json as { error?: { code?: string; details?: { available?: unknown } } } | undefined)?.error;
  if (r.status >= 200 && r.status < 300) {
    const id = (r.json as { positionId?: string }).positionId;
    if (id) await ctx.call('position.cancel', { params: { positionId: id } });
    return undefined;
  }
  return err?.code === 'insufficient_funds' && typeof err.details?.available === 'string' ? new Decimal(err.details.available) : undefined;
}

export async function ledgerWalk(ctx: CheckContext, bounds: typeof WALK = WALK) {
  const eventual = eventualReads(ctx.profile);
  if (eventual) throw new CheckSkip(eventual);
  // The rate every lend of the walk rests at, read once before the first (a skip when none is safe).
  await restingRateFor(ctx);
  const asset = pairAsset(ctx.profile);
  const collateral = collateralFor(ctx.profile, asset, '1').asset;
  let n = 0;
  let learnable: string[] = [];
  let taken: string[] = [];
  const limited: Real['limited'] = {};
  const setup = async (): Promise<{ model: WalkModel; real: Real }> => {
    if (limited.seen) throw stopped(limited);
    const tag = `walk${n++}`;
    const userId = ctx.hasControls ? ctx.user(tag) : await fundedUser(ctx, tag);
    if (ctx.hasControls) for (const a of new Set([asset, collateral])) await fund(ctx, userId, a, '1000000');
    const funds: FundsSource = async (assets) => {
      if (limited.seen) throw stopped(limited);
      if (!ctx.hasControls) return assets.includes(asset) ? { [asset]: await probeFunds(ctx, userId, asset) } : {};
      // One read of the balances control gives every asset (one a step, not one per asset: issue 48).
      const r = await ctx.call('sandbox.balances', { params: { userId } });
      if (r.status === 429) throw new RateLimited((limited.seen = 'the balances control answered 429 after one wait'));
      const b = expectShape(r, controls.balancesResponse, 'the balances control answers with balances');
      return Object.fromEntries(assets.map((a) => [a, new Decimal(b.balances.find((x) => x.asset === a)?.available ?? '0')]));
    };
    const start: Record<string, Decimal | undefined> = { [asset]: undefined, [collateral]: undefined, ...(await funds([...new Set([asset, collateral])])) };
    learnable = Object.keys(start).filter((a) => start[a] !== undefined);
    taken = [];
    return { model: walkModel(userId, start, ctx.hasControls), real: { ctx, userId, asset, funds, taken, limited, deadline: t0 + bounds.budgetMs } };
  };
  const t0 = performance.now();
  // The fixed tour first: every kind of step on every run; a failure is cut down by removing
  // steps while it still fails (the tour is not generated, so fast-check cannot shrink it).
  const runTour = async (cmds: Cmd[]): Promise<WalkBreak | RateLimited | undefined> => {
    try {
      await fc.asyncModelRun(setup, cmds);
      return undefined;
    } catch (e) {
      if (e instanceof WalkBreak || e instanceof RateLimited) return e;
      throw e;
    }
  };
  let cmds = tour(ctx.hasControls);
  const first = bounds.tour ? await runTour(cmds) : undefined;
  const budget = bounds.budgetMs >= 1000 && bounds.budgetMs % 1000 === 0 ? `${bounds.budgetMs / 1000} s` : `${bounds.budgetMs} ms`;
  if (first instanceof BudgetSpent) throw unaffordable(`the walk used up its ${budget} time budget in the fixed tour, with no broken rule found (${first.message})`);
  if (first instanceof RateLimited) throw unaffordable(`the target rate-limited the walk's fixed tour (${first.message}): a key of a higher tier gives it room`);
  let broke = first;
  const tourTaken = taken.length;
  if (broke) {
    for (let i = 0; i < cmds.length; ) {
      const fewer = cmds.filter((_, j) => j !== i);
      const again = await runTour(fewer);
      // Rate-limited while cutting down: the failure stands as cut so far.
      if (again instanceof RateLimited) break;
      if (again) [cmds, broke] = [fewer, again];
      else i++;
    }
    fail(
      'every answer and every learnable balance of a sequence of operations agrees with the ledger model, to the last unit',
      "the model's answer and funds after each step",
      `${broke.message}\n  shortest sequence found: ${cmds.map(String).join(',')} (the fixed tour, cut down step by step; no seed needed), ${Math.round(performance.now() - t0)} ms`,
    );
  }
  // The smallest broken sequence seen, kept apart: a 429 during shrinking is no smaller failure.
  let smallest: { error: WalkBreak; cmds: string } | undefined;
  const maxCommands = ctx.hasControls ? bounds.maxCommands : Math.min(bounds.maxCommands, bounds.maxCommandsWithoutClock);
  const details = await fc.check(
    fc.asyncProperty(fc.commands(commandArbs(), { maxCommands, size: 'max' }), async (cmds) => {
      try {
        await fc.asyncModelRun(setup, cmds);
      } catch (e) {
        if (e instanceof WalkBreak) smallest = { error: e, cmds: String(cmds) };
        throw e;
      }
    }),
    { seed: ctx.seed, numRuns: ctx.hasControls ? bounds.numRuns : Math.min(bounds.numRuns, bounds.numRunsWithoutClock), interruptAfterTimeLimit: bounds.timeLimitMs, markInterruptAsFailure: false },
  );
  const ms = Math.round(performance.now() - t0);
  // fast-check reports a run that the time bound cut before any walk finished as failed with no
  // error (numSuccesses 0): that is a slow machine or target, not a broken rule (CI, stop 52).
  const noneFinished = details.failed && details.interrupted && details.errorInstance == null && details.counterexample == null;
  if (noneFinished) {
    if (!bounds.tour || tourTaken === 0) throw unaffordable(`no walk finished within ${bounds.timeLimitMs} ms, with no broken rule found`);
    return pass({
      notes: [
        `the fixed tour of every step (${tourTaken} of ${cmds.length} taken) agreed with the model; no random walk finished within ${bounds.timeLimitMs} ms (seed ${details.seed}), so none is counted, in ${ms} ms`,
        `funds checked after every step for ${learnable.join(', ') || 'no asset'}, via ${ctx.hasControls ? 'the sandbox balances control' : 'insufficient_funds details of a largest-order lend'}`,
      ],
    });
  }
  if (details.failed) {
    let e = details.errorInstance;
    let shortest = String(details.counterexample?.[0] ?? '(none)');
    if (e instanceof RateLimited && smallest) ({ error: e, cmds: shortest } = smallest);
    const walks = `${n} walk${n === 1 ? '' : 's'}`;
    if (e instanceof BudgetSpent) throw unaffordable(`the walk used up its ${budget} time budget after ${walks}, with no broken rule found (${e.message})`);
    if (e instanceof RateLimited) {
      throw unaffordable(`the target rate-limited the walk (${e.message}) after ${walks}, with no broken rule found: a key of a higher tier gives it room`);
    }
    // A broken rule is a WalkBreak; anything else (a transport error, a skip) is what it is.
    if (e instanceof CheckSkip) throw e;
    fail(
      'every answer and every learnable balance of a random sequence of operations agrees with the ledger model, to the last unit',
      'the model\'s answer and funds after each step',
      `${e instanceof WalkBreak ? e.message : String(e)}\n  shortest sequence found: ${shortest}\n  seed ${details.seed}, path ${details.counterexamplePath ?? '-'} (replay: --seed ${details.seed}), ${details.numShrinks} shrinks${details.interrupted ? ', shrinking cut short by the time bound' : ''}, ${ms} ms`,
    );
  }
  if (details.numRuns === 0) throw unaffordable(`no walk finished within ${bounds.timeLimitMs} ms`);
  return pass({
    notes: [
      `${bounds.tour ? `the fixed tour of every step (${tourTaken} of ${cmds.length} taken), then ` : ''}${details.numRuns} random walks of up to ${maxCommands} operations (seed ${details.seed}), in ${ms} ms${details.interrupted ? ', cut short by the time bound' : ''}`,
      `funds checked after every step for ${learnable.join(', ') || 'no asset'}, via ${ctx.hasControls ? 'the sandbox balances control' : 'insufficient_funds details of a largest-order lend'}`,
      ...(ctx.hasControls ? [] : ['clock steps skipped: the target has no sandbox clock (GET /v1/sandbox/clock), so maturity and interest payouts were not walked']),
    ],
  });
}

export function walkChecks(_profile: Profile, bounds: typeof WALK = WALK): Check[] {
  return [
    {
      id: 'model.ledger-walk',
      title: 'random sequences of lends, borrows, cancels, repays, withdrawals, PATCHes, reads and clock steps move exactly the money the model says',
      requirements: ['LEDGER-model', 'LEDGER-conserved', 'CONV-amount-decimal', 'ERR-insufficient_funds-details', 'EP-repay', 'EP-cancel', 'EP-withdraw', 'EP-patch', 'STATE-cancel-unmatched'],
      needs: ['write'],
      // Its clock steps move the target's time for everyone: after the main checks.
      phase: 'late',
      run: (ctx) => ledgerWalk(ctx, bounds),
    },
  ];
}
