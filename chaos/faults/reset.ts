import { z } from 'zod';
import { registerFault } from '../../faults/index.ts';
import { hold, type ReceiverFault } from './registry.ts';

// resetAndDestroy() sends a TCP RST (Node ≥ 16.17), the closest thing to a crashed peer.
const config = z.object({ afterMs: z.number().int().min(0).max(600_000).default(0) }).prefault({});

export const reset = registerFault<ReceiverFault<typeof config>>({
  seam: 'receiver',
  name: 'reset',
  description: 'reset the TCP connection (RST) without a response',
  config,
  async install(cfg, ctx) {
    if (cfg.afterMs > 0) await hold(ctx, cfg.afterMs);
    const socket = ctx.req.socket;
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
    return { status: null, response: 'connection reset' };
  },
  planned: (cfg) => (cfg.afterMs === 0 ? { status: null, response: 'connection reset' } : null),
});
