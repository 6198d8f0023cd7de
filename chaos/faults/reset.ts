import { z } from 'zod';
import { drop, hold, receiverFault } from './receiver-fault.ts';

// resetAndDestroy() sends a TCP RST (Node ≥ 16.17), the closest thing to a crashed peer.
const config = z.object({ afterMs: z.number().int().min(0).max(600_000).default(0) }).prefault({});

export const reset = receiverFault({
  name: 'reset',
  description: 'reset the TCP connection (RST) without a response',
  config,
  install: (cfg) => async (req) => {
    if (cfg.afterMs > 0) await hold(req.signal, cfg.afterMs);
    return drop('reset', 'connection reset');
  },
  planned: (cfg) => (cfg.afterMs === 0 ? { status: null, response: 'connection reset' } : null),
});
