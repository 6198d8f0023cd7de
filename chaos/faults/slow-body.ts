import { z } from 'zod';
import { registerFault } from '../../faults/index.ts';
import { hold, type ReceiverFault } from './registry.ts';

// Sends headers at once, then trickles the body in chunks so the response ends late.
const config = z
  .object({
    totalMs: z.number().int().min(0).max(600_000).default(6_000),
    chunks: z.number().int().min(1).max(1_000).default(6),
    status: z.number().int().min(100).max(599).default(200),
  })
  .prefault({});

export const slowBody = registerFault<ReceiverFault<typeof config>>({
  seam: 'receiver',
  name: 'slow-body',
  description: 'send the headers at once, then the body in chunks spread over totalMs',
  config,
  async install(cfg, ctx) {
    await ctx.answering?.({ status: cfg.status, response: `${cfg.status}, body still being sent` });
    ctx.res.writeHead(cfg.status, { 'content-type': 'application/json' });
    ctx.res.flushHeaders();
    const body = Buffer.from(JSON.stringify({ received: true, pad: 'x'.repeat(cfg.chunks * 4) }));
    const size = Math.ceil(body.length / cfg.chunks);
    for (let i = 0; i < cfg.chunks; i++) {
      if ((await hold(ctx, cfg.totalMs / cfg.chunks)) === 'peer-closed') return { status: cfg.status, response: `slow-body: sender gave up after chunk ${i}` };
      ctx.res.write(body.subarray(i * size, (i + 1) * size));
    }
    ctx.res.end();
    return { status: cfg.status, response: `${cfg.status} with body spread over ${cfg.totalMs} ms` };
  },
});
