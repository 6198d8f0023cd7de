import { z } from 'zod';
import type { Engine } from '../engine/engine.ts';
import type { Input } from '../endpoints/resolvers.ts';
import { engineFault, type EngineFault } from './fault.ts';

// Broken object-level authorization, one verb at a time (OWASP API1): the endpoint finds the
// position by its id alone and acts as the position's owner, whichever partner asked. Each verb
// is its own fault (owner-unchecked-get, -cancel, -patch, -repay), so the authorization matrix
// is shown to catch every cell, not only the first it tries.

const config = z.object({}).strict();

/** The partner that owns the position the path names, when it is not the caller. */
export function foreignOwner(engine: Engine, partnerId: string | undefined, positionId: string | undefined): string | undefined {
  const row = positionId === undefined ? undefined : engine.reads.row(positionId);
  return row && row.partner_id !== partnerId ? row.partner_id : undefined;
}

/** The input with the caller replaced by `partnerId` (its key id and tier kept). */
export const actingAs = (input: Input, partnerId: string): Input => ({ ...input, partner: { ...input.partner!, partnerId } });

const VERBS = { get: 'position.get', cancel: 'position.cancel', patch: 'position.patch', repay: 'position.repay' } as const;
const ROUTES: Record<keyof typeof VERBS, string> = {
  get: 'GET /positions/{positionId}',
  cancel: 'POST /positions/{positionId}/cancel',
  patch: 'PATCH /positions/{positionId}',
  repay: 'POST /positions/{positionId}/repay',
};

function ownerUnchecked<V extends keyof typeof VERBS>(verb: V): EngineFault<typeof config, `owner-unchecked-${V}`> {
  const endpoint = VERBS[verb];
  return engineFault({
    name: `owner-unchecked-${verb}`,
    description: `${ROUTES[verb]} looks the position up by id alone: another partner's key reads or acts on it as its owner`,
    breaks: "object-level authorization: a partner never reaches another partner's position",
    config,
    install(_config, resolvers) {
      const real = resolvers[endpoint]!;
      return {
        [endpoint]: (engine, input) => {
          const owner = foreignOwner(engine, input.partner?.partnerId, input.params.positionId);
          return real(engine, owner ? actingAs(input, owner) : input);
        },
      };
    },
  });
}

export const OWNER_UNCHECKED = [ownerUnchecked('get'), ownerUnchecked('cancel'), ownerUnchecked('patch'), ownerUnchecked('repay')] as const;
