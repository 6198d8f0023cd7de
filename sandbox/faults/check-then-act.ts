import type { Input } from '../endpoints/resolvers.ts';
import { gapConfig } from './config.ts';
import { engineFault, gap, type EngineFault } from './fault.ts';
import { checkFunds, validateFirst, withStaleRow, withoutFundsCheck } from './kit.ts';

// The two check-then-act races, each shared by the faults of one kind (one file per fault
// names the endpoint). The handler checks, lets go (an `await` of `gapMs`) and then acts on
// what it checked: every request that arrives in the gap passes the same check.

/** What a funds race takes: whose money, in which asset, how much. */
export interface Spend {
  userId: string;
  asset: string;
  amount: string;
}

/**
 * Check-then-act on a user's funds: the balance is checked, then debited without looking
 * again. The debit is relative (available − amount), so two withdrawals of 600000 from
 * 1000000 leave −200000: an overdraft, not a lost write.
 */
export function balanceRace<const N extends string>(name: N, endpoint: string, what: string, spend: (i: Input) => Spend): EngineFault<typeof gapConfig, N> {
  return engineFault({
    name,
    description: `${what}: the funds are checked, the handler awaits ${'`gapMs`'}, then debits without checking again`,
    breaks: 'over-commitment and conservation under overlapping requests',
    config: gapConfig,
    install(config, resolvers) {
      const real = resolvers[endpoint]!;
      return {
        [endpoint]: async (engine, input) => {
          // Its own rules first (a dry run, rolled back), then the funds: the race is in the funds alone.
          validateFirst(engine, () => withoutFundsCheck(engine, () => real(engine, input)));
          const s = spend(input);
          checkFunds(engine, input.partner!.partnerId, s.userId, s.asset, s.amount);
          await gap(config.gapMs);
          return withoutFundsCheck(engine, () => real(engine, input));
        },
      };
    },
  });
}

/**
 * Check-then-act on one position: the position is read, then the real operation runs on
 * that copy, so a transition another request made in the gap is not seen.
 */
export function staleRowRace<const N extends string>(name: N, endpoint: string, description: string, breaks: string): EngineFault<typeof gapConfig, N> {
  return engineFault({
    name,
    description,
    breaks,
    config: gapConfig,
    install(config, resolvers) {
      const real = resolvers[endpoint]!;
      return {
        [endpoint]: async (engine, input) => {
          const stale = { ...engine.getPosition(input.partner!.partnerId, input.params.positionId!) };
          await gap(config.gapMs);
          return withStaleRow(engine, stale, () => real(engine, input));
        },
      };
    },
  });
}
