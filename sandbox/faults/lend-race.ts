import { balanceRace } from './check-then-act.ts';

// Two lend orders in the gap both pass the funds check and both lock the money: more is
// committed to orders than the user holds.

export const lendRace = balanceRace('lend-race', 'lend.create', 'POST /lend', (i) => ({ userId: i.body.userId, asset: i.body.asset, amount: i.body.amount }));
