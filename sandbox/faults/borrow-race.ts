import { balanceRace } from './check-then-act.ts';

// The funds a borrow spends are its collateral: two borrows in the gap both pass the check
// and both lock it, pledging the same collateral twice.

export const borrowRace = balanceRace('borrow-race', 'borrow.create', 'POST /borrow (its collateral)', (i) => ({
  userId: i.body.userId,
  asset: i.body.collateral.asset,
  amount: i.body.collateral.amount,
}));
