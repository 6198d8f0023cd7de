import { z } from 'zod';
import { answer, hold, receiverFault } from './receiver-fault.ts';

// Sends headers at once, then trickles the body in chunks so the response ends late.
const config = z
  .object({
    totalMs: z.number().int().min(0).max(600_000).default(6_000),
    chunks: z.number().int().min(1).max(1_000).default(6),
    status: z.number().int().min(100).max(599).default(200),
  })
  .prefault({});

export const slowBody = receiverFault({
  name: 'slow-body',
  description: 'send the headers at once, then the body in chunks spread over totalMs',
  config,
  install: (cfg) => async (req) => {
    const body = Buffer.from(JSON.stringify({ received: true, pad: 'x'.repeat(cfg.chunks * 4) }));
    const size = Math.ceil(body.length / cfg.chunks);
    let ended!: (line: string) => void;
    const final = new Promise<string>((r) => (ended = r));
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        if ((await hold(req.signal, cfg.totalMs / cfg.chunks)) === 'peer-closed') {
          ended(`slow-body: sender gave up after chunk ${i}`);
          return c.close();
        }
        c.enqueue(body.subarray(i * size, (i + 1) * size));
        if (++i < cfg.chunks) return;
        ended(`${cfg.status} with body spread over ${cfg.totalMs} ms`);
        c.close();
      },
    });
    return answer(new Response(stream, { status: cfg.status, headers: { 'content-type': 'application/json' } }), `${cfg.status}, body still being sent`, final);
  },
});
