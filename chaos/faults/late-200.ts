import { z } from 'zod';
import { answer, drop, hold, receiverFault } from './receiver-fault.ts';

// The tricky one: the work is done and acknowledged, but after the deadline. A sender must
// treat it as failed and retry, so the receiver then sees a duplicate it must accept.
const config = z.object({ lateByMs: z.number().int().min(1).max(600_000).default(1_000) }).prefault({});

export const late200 = receiverFault({
  name: 'late-200',
  description: 'answer 200 only after the deadline has passed',
  config,
  install: (cfg, env) => async (req, next) => {
    const ms = env.deadlineMs + cfg.lateByMs;
    if ((await hold(req.signal, ms)) === 'peer-closed') return drop('gone', `late-200: sender gave up before ${ms} ms`);
    return answer(await next(req), `200 after ${ms} ms (late)`);
  },
});
