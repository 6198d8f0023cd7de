import { z } from 'zod';
import { answer, receiverFault } from './receiver-fault.ts';

// Any status the plan chooses; 3xx carry a Location so a redirect-following sender shows itself.
const config = z.object({
  status: z.number().int().min(300).max(599),
  retryAfterSeconds: z.number().int().min(0).optional(),
  location: z.string().default('/moved'),
});

export const status = receiverFault({
  name: 'status',
  description: 'answer at once with the configured status (500, 502, 503, 429, 410, 3xx, 4xx …)',
  config,
  install: (cfg) => async () => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (cfg.status >= 300 && cfg.status < 400) headers.location = cfg.location;
    if (cfg.retryAfterSeconds !== undefined) headers['retry-after'] = String(cfg.retryAfterSeconds);
    return answer(new Response(JSON.stringify({ error: { code: 'chaos', message: `injected ${cfg.status}` } }), { status: cfg.status, headers }), String(cfg.status));
  },
  planned: (cfg) => ({ status: cfg.status, response: String(cfg.status) }),
});
