import { z } from 'zod';
import { registerFault } from '../../faults/index.ts';
import { OK_BODY, hold, type ReceiverFault } from './registry.ts';

// The tricky one: the work is done and acknowledged, but after the deadline. A sender must
// treat it as failed and retry, so the receiver then sees a duplicate it must accept.
const config = z.object({ lateByMs: z.number().int().min(1).max(600_000).default(1_000) }).prefault({});

export const late200 = registerFault<ReceiverFault<typeof config>>({
  seam: 'receiver',
  name: 'late-200',
  description: 'answer 200 only after the deadline has passed',
  config,
  async install(cfg, ctx) {
    const ms = ctx.deadlineMs + cfg.lateByMs;
    if ((await hold(ctx, ms)) === 'peer-closed') return { status: null, response: `late-200: sender gave up before ${ms} ms` };
    const outcome = { status: 200, response: `200 after ${ms} ms (late)` };
    await ctx.answering?.(outcome);
    ctx.res.writeHead(200, { 'content-type': 'application/json' }).end(OK_BODY);
    return outcome;
  },
});
