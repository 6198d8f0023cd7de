import { z } from 'zod';
import { registerFault } from '../../faults/index.ts';
import { OK_BODY, hold, type ReceiverFault } from './registry.ts';

// Waits before the status line; whether this breaks the deadline depends on delayMs.
const config = z.object({ delayMs: z.number().int().min(0).max(600_000).default(4_000), status: z.number().int().min(100).max(599).default(200) }).prefault({});

export const slowHeaders = registerFault<ReceiverFault<typeof config>>({
  seam: 'receiver',
  name: 'slow-headers',
  description: 'delay the status line and headers, then answer with the configured status',
  config,
  async install(cfg, ctx) {
    if ((await hold(ctx, cfg.delayMs)) === 'peer-closed') return { status: null, response: `slow-headers: sender gave up before ${cfg.delayMs} ms` };
    const outcome = { status: cfg.status, response: `${cfg.status} after ${cfg.delayMs} ms header delay` };
    await ctx.answering?.(outcome);
    ctx.res.writeHead(cfg.status, { 'content-type': 'application/json' }).end(OK_BODY);
    return outcome;
  },
});
