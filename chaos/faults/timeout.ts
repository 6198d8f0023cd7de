import { z } from 'zod';
import { drop, hold, receiverFault } from './receiver-fault.ts';

// Holds the request open past the 5 s deadline and then drops it without answering.
const config = z.object({ holdMs: z.number().int().positive().max(600_000).optional() }).prefault({});

export const timeout = receiverFault({
  name: 'timeout',
  description: 'hold the connection past the deadline, then close it without a response',
  config,
  install: (cfg, env) => async (req) => {
    const ms = cfg.holdMs ?? env.deadlineMs + 1_000;
    const how = await hold(req.signal, ms);
    return drop('destroy', how === 'peer-closed' ? `timeout: sender gave up before ${ms} ms` : `timeout: held ${ms} ms, closed`);
  },
});
