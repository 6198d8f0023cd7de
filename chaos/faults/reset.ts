import { z } from 'zod';
import { hold, registerFault } from './registry.ts';

// resetAndDestroy() sends a TCP RST (Node ≥ 16.17), the closest thing to a crashed peer.
export const reset = registerFault({
  name: 'reset',
  description: 'reset the TCP connection (RST) without a response',
  config: z.object({ afterMs: z.number().int().min(0).max(600_000).default(0) }).prefault({}),
  async apply(cfg, ctx) {
    if (cfg.afterMs > 0) await hold(ctx, cfg.afterMs);
    const socket = ctx.req.socket;
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
    return { status: null, response: 'connection reset' };
  },
  planned: (cfg) => (cfg.afterMs === 0 ? { status: null, response: 'connection reset' } : null),
});
