import { gapConfig } from './config.ts';
import { gap, type FaultModule } from './fault.ts';
import { withStaleRow } from './kit.ts';

// Check-then-act on one position: the handler reads the position, lets go (an `await`), then
// acts on what it read. Two cancels in the gap both see `pending` and both refund; two full
// repays both see `active` and both debit (and both release the collateral); two PATCHes
// both write the whole row back, each with only its own flag changed: one change is lost.

function staleRowRace(name: string, endpoint: string, description: string, breaks: string): FaultModule<typeof gapConfig> {
  return {
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
  };
}

export const cancelRace = staleRowRace(
  'cancel-race',
  'position.cancel',
  'POST /positions/{id}/cancel reads the position, awaits `gapMs`, then cancels what it read: concurrent cancels all refund',
  'one transition per position (one refund)',
);

export const repayRace = staleRowRace(
  'repay-race',
  'position.repay',
  'POST /positions/{id}/repay reads the position, awaits `gapMs`, then repays what it read: concurrent full repays all debit',
  'one transition per position (one debit)',
);

export const patchLostUpdate = staleRowRace(
  'patch-lost-update',
  'position.patch',
  'PATCH /positions/{id} reads the position, awaits `gapMs`, then writes the whole row back with its own change: a concurrent PATCH of another flag is lost',
  'no lost updates on PATCH',
);
