import { z } from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../../contract/index.ts';
import type { Resolver } from '../endpoints/resolvers.ts';
import { RawJson } from '../endpoints/raw-json.ts';
import { engineFault, type FaultResolver } from './fault.ts';

// hasMore computed as "this page is full" instead of "further pages exist" (part 2): a last
// page exactly `limit` long says hasMore true, and its cursor leads to an empty page. Walks
// whose total is not a multiple of the page size never see it (issue 51).

const EMPTY = 'ZW1wdHktcGFnZQ';

export const hasMoreOnFullLastPage = engineFault({
  name: 'hasmore-on-full-last-page',
  description: 'GET /users/{userId}/positions says hasMore true on a last page exactly `limit` long; its cursor gives an empty page',
  breaks: 'hasMore (part 2: true when further pages exist)',
  config: z.object({}).strict(),
  install(_config, resolvers) {
    const real = resolvers['positions.list'] as Resolver | FaultResolver;
    return {
      'positions.list': async (engine, input) => {
        if (input.query.cursor === EMPTY) return { positions: [], hasMore: false, ...(engine.profile.pagination.lastPageCursor === 'null' ? { nextCursor: null } : {}) };
        const out = await real(engine, input);
        const page = (out instanceof RawJson ? JSON.parse(out.text) : out) as { positions: unknown[]; hasMore: boolean; nextCursor?: string | null };
        const limit = Math.min((input.query.limit as number | undefined) ?? LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX);
        if (page.hasMore || page.positions.length !== limit) return out;
        return { ...page, hasMore: true, nextCursor: EMPTY };
      },
    };
  },
});
