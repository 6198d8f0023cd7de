import { z } from 'zod';
import { hold, registerFault } from './registry.ts';

// Holds the request open past the 5 s deadline and then drops it without answering.
export const timeout = registerFault({
  name: 'timeout',
  description: 'hold the connection past the deadline, then close it without a response',
  config: z.object({ holdMs: z.number().int().positive().max(600_000).optional() }).prefault({}),
  async apply(cfg, ctx) {
    const ms = cfg.holdMs ?? ctx.deadlineMs + 1_000;
    const how = await hold(ctx, ms);
    ctx.res.destroy();
    return { status: null, response: how === 'peer-closed' ? `timeout: sender gave up before ${ms} ms` : `timeout: held ${ms} ms, closed` };
  },
});
