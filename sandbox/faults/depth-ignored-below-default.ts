import { z } from 'zod';
import { ORDERBOOK_DEPTH_DEFAULT } from '../../contract/index.ts';
import type { Resolver } from '../endpoints/resolvers.ts';
import { engineFault, type FaultResolver } from './fault.ts';

// The authenticated order book's `depth` (part 4: "depth number (default 10)") taken, but
// never applied below the default: depth=1 still answers up to 10 levels a side (issue 51).

export const depthIgnoredBelowDefault = engineFault({
  name: 'depth-ignored-below-default',
  description: 'GET /markets/{asset}/orderbook answers up to 10 levels a side for any depth under 10',
  breaks: 'the order book depth parameter (part 4 and 8: depth, default 10)',
  config: z.object({}).strict(),
  install(_config, resolvers) {
    const real = resolvers['orderbook.get'] as Resolver | FaultResolver;
    return {
      'orderbook.get': (engine, input) => {
        const depth = input.query.depth as number | undefined;
        return real(engine, depth !== undefined && depth < ORDERBOOK_DEPTH_DEFAULT ? { ...input, query: { ...input.query, depth: ORDERBOOK_DEPTH_DEFAULT } } : input);
      },
    };
  },
});
