import { z } from 'zod';
import { answer, drop, hold, receiverFault } from './receiver-fault.ts';

// Waits before the status line; whether this breaks the deadline depends on delayMs.
const config = z.object({ delayMs: z.number().int().min(0).max(600_000).default(4_000), status: z.number().int().min(100).max(599).default(200) }).prefault({});

export const slowHeaders = receiverFault({
  name: 'slow-headers',
  description: 'delay the status line and headers, then answer with the configured status',
  config,
  install: (cfg) => async (req, next) => {
    if ((await hold(req.signal, cfg.delayMs)) === 'peer-closed') return drop('gone', `slow-headers: sender gave up before ${cfg.delayMs} ms`);
    const ok = await next(req);
    return answer(new Response(ok.body, { status: cfg.status, headers: ok.headers }), `${cfg.status} after ${cfg.delayMs} ms header delay`);
  },
});
