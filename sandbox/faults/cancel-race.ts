import { staleRowRace } from './check-then-act.ts';

// Two cancels in the gap both see `pending` and both refund: the order's funds come back twice.

export const cancelRace = staleRowRace(
  'cancel-race',
  'position.cancel',
  'POST /positions/{id}/cancel reads the position, awaits `gapMs`, then cancels what it read: concurrent cancels all refund',
  'one transition per position (one refund)',
);
