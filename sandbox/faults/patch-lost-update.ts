import { staleRowRace } from './check-then-act.ts';

// Two PATCHes in the gap both write the whole row back, each with only its own flag changed
// on the copy it read: the change written first is lost.

export const patchLostUpdate = staleRowRace(
  'patch-lost-update',
  'position.patch',
  'PATCH /positions/{id} reads the position, awaits `gapMs`, then writes the whole row back with its own change: a concurrent PATCH of another flag is lost',
  'no lost updates on PATCH',
);
