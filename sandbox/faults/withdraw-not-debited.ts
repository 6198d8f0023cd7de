import type { Dec } from '../money/money.ts';
import { engineFault } from './fault.ts';
import { swapped } from './kit.ts';
import { counter, everyConfig } from './money-config.ts';

// A sequential money bug, no overlap needed: a withdrawal is checked against the funds,
// accepted and recorded (202 and a withdrawal record), but the debit is never written.
// The user can spend the same money again.

export const withdrawNotDebited = engineFault({
  name: 'withdraw-not-debited',
  description: 'POST /users/{userId}/withdraw checks the funds and records the withdrawal, but never debits the balance',
  breaks: 'conservation: a withdrawal takes exactly its amount off the available funds',
  config: everyConfig,
  install(config, resolvers) {
    const real = resolvers['user.withdraw']!;
    const hit = counter(config.every);
    return {
      'user.withdraw': (engine, input) => {
        if (!hit()) return real(engine, input);
        const { ledger } = engine;
        // The funds check of ledger.lock, without its write.
        const checkOnly = (partnerId: string, userId: string, asset: string, amount: Dec): void => void ledger.covering(partnerId, userId, asset, amount);
        return swapped(ledger, 'lock', checkOnly, () => real(engine, input));
      },
    };
  },
});
