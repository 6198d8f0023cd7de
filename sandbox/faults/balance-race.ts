import type { Input } from '../http/handlers.ts';
import { gapConfig } from './config.ts';
import { gap, type FaultModule } from './fault.ts';
import { checkFunds, withoutFundsCheck } from './kit.ts';

// Check-then-act on a user's funds: the handler reads the balance and refuses when short,
// lets go (an `await`), then takes the money without looking again. Two requests in the gap
// both pass the check: an overdraft. The debit is relative (available − amount), so two
// withdrawals of 600000 from 1000000 leave −200000.

interface Spend {
  userId: string;
  asset: string;
  amount: string;
}

function balanceRace(name: string, endpoint: string, what: string, spend: (i: Input) => Spend): FaultModule<typeof gapConfig> {
  return {
    name,
    description: `${what}: the funds are checked, the handler awaits ${'`gapMs`'}, then debits without checking again`,
    breaks: 'over-commitment and conservation under overlapping requests',
    config: gapConfig,
    install(config, resolvers) {
      const real = resolvers[endpoint]!;
      return {
        [endpoint]: async (engine, input) => {
          const s = spend(input);
          checkFunds(engine, input.partner!.partnerId, s.userId, s.asset, s.amount);
          await gap(config.gapMs);
          return withoutFundsCheck(engine, () => real(engine, input));
        },
      };
    },
  };
}

export const withdrawRace = balanceRace('withdraw-race', 'user.withdraw', 'POST /users/{userId}/withdraw', (i) => ({
  userId: i.params.userId!,
  asset: i.body.asset,
  amount: i.body.amount,
}));

export const lendRace = balanceRace('lend-race', 'lend.create', 'POST /lend', (i) => ({ userId: i.body.userId, asset: i.body.asset, amount: i.body.amount }));

export const borrowRace = balanceRace('borrow-race', 'borrow.create', 'POST /borrow (its collateral)', (i) => ({
  userId: i.body.userId,
  asset: i.body.collateral.asset,
  amount: i.body.collateral.amount,
}));
