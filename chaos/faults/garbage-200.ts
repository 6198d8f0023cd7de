import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { answer, receiverFault } from './receiver-fault.ts';

// 200 with a body that is neither JSON nor what the content type claims: a sender must
// judge success by the status alone.
const config = z.object({ bytes: z.number().int().min(0).max(1_048_576).default(256) }).prefault({});

export const garbage200 = receiverFault({
  name: 'garbage-200',
  description: 'answer 200 with random bytes under a JSON content type',
  config,
  install: (cfg) => async () => answer(new Response(new Uint8Array(randomBytes(cfg.bytes)), { status: 200, headers: { 'content-type': 'application/json' } }), `200 with ${cfg.bytes} garbage bytes`),
  planned: (cfg) => ({ status: 200, response: `200 with ${cfg.bytes} garbage bytes` }),
});
