import { z } from 'zod';
import { engineFault } from './fault.ts';

// A read cache that writes do not invalidate: GET /positions/{id} answers what it answered
// up to `staleMs` ago, so a PATCH or cancel that was acknowledged is not seen by the next read.

export const staleRead = engineFault({
  name: 'stale-read',
  description: 'GET /positions/{id} is served from a cache kept for `staleMs` and not invalidated by writes',
  breaks: 'reads after writes (an acknowledged write is seen by the next read, or within the profile\'s convergence time)',
  config: z.object({ staleMs: z.number().int().min(1).max(600_000).default(3_000) }).strict(),
  install(cfg, resolvers) {
    const real = resolvers['position.get']!;
    const cache = new Map<string, { at: number; view: unknown }>();
    return {
      'position.get': (engine, input) => {
        const key = `${input.partner!.partnerId}\u0000${input.params.positionId}`;
        const hit = cache.get(key);
        if (hit && performance.now() - hit.at < cfg.staleMs) return hit.view;
        const view = real(engine, input);
        cache.set(key, { at: performance.now(), view });
        return view;
      },
    };
  },
});
