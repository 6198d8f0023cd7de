import { z } from 'zod';
import { LEND_ASSETS } from '../../contract/index.ts';
import type { Resolver } from '../endpoints/resolvers.ts';
import { engineFault, type FaultResolver } from './fault.ts';
import { swapped } from './kit.ts';

// A lend asset checked against every asset the service holds (its collateral list included)
// instead of the spec's "One of USDC, USDT, DAI" (part 2): a lend in ETH is accepted and
// becomes a position. The values most likely to slip through an enum are the ones a service
// knows from elsewhere; this plants exactly that (issue 51).

const lendable = (held: readonly string[], asset: unknown): asset is string => typeof asset === 'string' && held.includes(asset) && !(LEND_ASSETS as readonly string[]).includes(asset);

export const lendAssetFromCollateral = engineFault({
  name: 'lend-asset-from-collateral',
  description: 'POST /lend takes any asset the sandbox holds (the profile\'s collateral list, e.g. ETH) as the lend asset',
  breaks: 'the lend asset enum (part 2: one of USDC, USDT, DAI)',
  config: z.object({}).strict(),
  // A collateral list of lend assets only holds nothing else to take.
  bugUnder: (profile) => profile.assets.collateral.some((a) => !(LEND_ASSETS as readonly string[]).includes(a)),
  // The body parse refuses the asset before any resolver runs: it is parsed as a lend asset, then given back.
  parsers: (_config, profile) => ({
    'lend.create': (json, parse) => {
      const asset = (json as { asset?: unknown } | undefined)?.asset;
      if (!lendable(profile.assets.collateral, asset)) return parse(json);
      return { ...(parse({ ...(json as object), asset: LEND_ASSETS[0] }) as object), asset };
    },
  }),
  install(_config, resolvers) {
    const real = resolvers['lend.create'] as Resolver | FaultResolver;
    return {
      'lend.create': (engine, input) => {
        const asset = (input.body as { asset?: unknown }).asset;
        if (!lendable(engine.profile.assets.collateral, asset)) return real(engine, input);
        const own = engine.requireMarketAsset.bind(engine);
        const held = (field: string, a: string) => (a === asset ? undefined : own(field, a));
        return swapped(engine, 'requireMarketAsset', held, () => real(engine, input));
      },
    };
  },
});
