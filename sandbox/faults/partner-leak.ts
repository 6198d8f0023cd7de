import type { KeyInfo } from '../pipeline/plugin.ts';
import { gapConfig } from './config.ts';
import { engineFault, gap, type FaultResolver } from './fault.ts';

// Request state in a shared variable instead of the request's own context: each request
// stores its partner in one slot, awaits, and reads the slot back. Alone, a partner gets its
// own identity back; under load from two partners a request may act as the other one, so
// one partner's order lands in the other's state for the same userId.

const ENDPOINTS = ['lend.create', 'borrow.create', 'user.withdraw', 'position.cancel', 'position.repay', 'position.patch', 'position.get', 'positions.list'];

export const partnerLeak = engineFault({
  name: 'partner-leak',
  description: 'the calling partner is kept in one shared slot across an await: under load a request acts as another partner',
  breaks: 'isolation between partners on the same userId',
  config: gapConfig,
  install(config, resolvers) {
    const slot: { partner?: KeyInfo } = {};
    const out: Record<string, FaultResolver> = {};
    for (const id of ENDPOINTS) {
      const real = resolvers[id];
      if (!real) continue;
      out[id] = async (engine, input) => {
        slot.partner = input.partner;
        await gap(config.gapMs);
        return real(engine, { ...input, partner: slot.partner });
      };
    }
    return out;
  },
});
