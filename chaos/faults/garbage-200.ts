import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { registerFault } from './registry.ts';

// 200 with a body that is neither JSON nor what the content type claims: a sender must
// judge success by the status alone.
export const garbage200 = registerFault({
  name: 'garbage-200',
  description: 'answer 200 with random bytes under a JSON content type',
  config: z.object({ bytes: z.number().int().min(0).max(1_048_576).default(256) }).prefault({}),
  async apply(cfg, ctx) {
    ctx.res.writeHead(200, { 'content-type': 'application/json' }).end(randomBytes(cfg.bytes));
    return { status: 200, response: `200 with ${cfg.bytes} garbage bytes` };
  },
  planned: (cfg) => ({ status: 200, response: `200 with ${cfg.bytes} garbage bytes` }),
});
