import { D } from '../money/money.ts';
import { engineFault } from './fault.ts';
import { counter, everyConfig } from './money-config.ts';

// A sequential money bug, no overlap needed: a cancel releases the order's funds (or a
// borrow's collateral) and then releases them again, in its own later write. One cancel, two
// refunds: the user's available funds grow by what the order held.

export const cancelDoubleRefund = engineFault({
  name: 'cancel-double-refund',
  description: 'POST /positions/{id}/cancel releases the order\'s funds (or collateral) twice',
  breaks: 'conservation: a cancel gives back exactly what the order held, once',
  config: everyConfig,
  install(config, resolvers) {
    const real = resolvers['position.cancel']!;
    const hit = counter(config.every);
    return {
      'position.cancel': async (engine, input) => {
        const row = engine.getPosition(input.partner!.partnerId, input.params.positionId!);
        const out = (await real(engine, input)) as { released?: string };
        if (hit() && out?.released !== undefined) {
          const asset = row.type === 'lend' ? row.asset : row.collateral_asset!;
          engine.tx(() => engine.ledger.credit(row.partner_id, row.user_id, asset, new D(out.released!)));
        }
        return out;
      },
    };
  },
});
