import { z } from 'zod';
import { hold, registerFault } from './registry.ts';

// A clean FIN with no response bytes: the sender sees a socket hang-up, not a reset.
export const close = registerFault({
  name: 'close',
  description: 'close the connection cleanly without writing a response',
  config: z.object({ afterMs: z.number().int().min(0).max(600_000).default(0) }).prefault({}),
  async apply(cfg, ctx) {
    if (cfg.afterMs > 0) await hold(ctx, cfg.afterMs);
    ctx.req.socket.end();
    return { status: null, response: 'closed without response' };
  },
  planned: (cfg) => (cfg.afterMs === 0 ? { status: null, response: 'closed without response' } : null),
});
