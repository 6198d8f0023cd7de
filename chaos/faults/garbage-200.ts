import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { registerFault } from '../../faults/index.ts';
import type { ReceiverFault } from './registry.ts';

// 200 with a body that is neither JSON nor what the content type claims: a sender must
// judge success by the status alone.
const config = z.object({ bytes: z.number().int().min(0).max(1_048_576).default(256) }).prefault({});

export const garbage200 = registerFault<ReceiverFault<typeof config>>({
  seam: 'receiver',
  name: 'garbage-200',
  description: 'answer 200 with random bytes under a JSON content type',
  config,
  async install(cfg, ctx) {
    ctx.res.writeHead(200, { 'content-type': 'application/json' }).end(randomBytes(cfg.bytes));
    return { status: 200, response: `200 with ${cfg.bytes} garbage bytes` };
  },
  planned: (cfg) => ({ status: 200, response: `200 with ${cfg.bytes} garbage bytes` }),
});
