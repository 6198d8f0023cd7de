import { z } from 'zod';
import { registerFault } from '../../faults/index.ts';
import { hold, type ReceiverFault } from './registry.ts';

// Holds the request open past the 5 s deadline and then drops it without answering.
const config = z.object({ holdMs: z.number().int().positive().max(600_000).optional() }).prefault({});

export const timeout = registerFault<ReceiverFault<typeof config>>({
  seam: 'receiver',
  name: 'timeout',
  description: 'hold the connection past the deadline, then close it without a response',
  config,
  async install(cfg, ctx) {
    const ms = cfg.holdMs ?? ctx.deadlineMs + 1_000;
    const how = await hold(ctx, ms);
    ctx.res.destroy();
    return { status: null, response: how === 'peer-closed' ? `timeout: sender gave up before ${ms} ms` : `timeout: held ${ms} ms, closed` };
  },
});
