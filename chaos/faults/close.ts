import { z } from 'zod';
import { drop, hold, receiverFault } from './receiver-fault.ts';

// A clean FIN with no response bytes: the sender sees a socket hang-up, not a reset.
const config = z.object({ afterMs: z.number().int().min(0).max(600_000).default(0) }).prefault({});

export const close = receiverFault({
  name: 'close',
  description: 'close the connection cleanly without writing a response',
  config,
  install: (cfg) => async (req) => {
    if (cfg.afterMs > 0) await hold(req.signal, cfg.afterMs);
    return drop('close', 'closed without response');
  },
  planned: (cfg) => (cfg.afterMs === 0 ? { status: null, response: 'closed without response' } : null),
});
