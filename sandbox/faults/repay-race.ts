import { staleRowRace } from './check-then-act.ts';

// Two full repays in the gap both see `active`: both debit, and both release the collateral.

export const repayRace = staleRowRace(
  'repay-race',
  'position.repay',
  'POST /positions/{id}/repay reads the position, awaits `gapMs`, then repays what it read: concurrent full repays all debit',
  'one transition per position (one debit)',
);
