import { balanceRace } from './check-then-act.ts';

// Two withdrawals in the gap both pass the funds check and both debit: the user withdraws
// more than they hold.

export const withdrawRace = balanceRace('withdraw-race', 'user.withdraw', 'POST /users/{userId}/withdraw', (i) => ({
  userId: i.params.userId!,
  asset: i.body.asset,
  amount: i.body.amount,
}));
