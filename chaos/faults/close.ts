import { z } from 'zod';
import { registerFault } from '../../faults/index.ts';
import { hold, type ReceiverFault } from './registry.ts';

// A clean FIN with no response bytes: the sender sees a socket hang-up, not a reset.
const config = z.object({ afterMs: z.number().int().min(0).max(600_000).default(0) }).prefault({});

export const close = registerFault<ReceiverFault<typeof config>>({
  seam: 'receiver',
  name: 'close',
  description: 'close the connection cleanly without writing a response',
  config,
  async install(cfg, ctx) {
    if (cfg.afterMs > 0) await hold(ctx, cfg.afterMs);
    ctx.req.socket.end();
    return { status: null, response: 'closed without response' };
  },
  planned: (cfg) => (cfg.afterMs === 0 ? { status: null, response: 'closed without response' } : null),
});
