import { z } from 'zod';
import { doc } from './profile-doc.ts';

// Options about how lendcheck drives a target, not about what the service does: where a
// target puts ids in bodies the spec leaves open, and how its users get funds. Part of the
// profile (contract/profile.ts); kept here so that file stays about the service's choices.

export const idsOptions = z
  .object({
    webhook: doc(z.string().min(1).optional(), {
      spec: 'Part 2: "webhook registration result: not shown" (where its id is).',
      reason: 'Unset: the suites find the id as the one string field named like an id (id, webhookId, …); set it to name the field.',
    }),
    withdrawal: doc(z.string().min(1).optional(), {
      spec: 'Part 2: "withdrawal record: not shown" (where its id is).',
      reason: 'Unset: found as the field named like an id that is not userId; set it to name the field.',
    }),
    borrow: doc(z.string().min(1).optional(), {
      spec: 'Part 4: POST /borrow "Response body: not shown" (where the new position\'s id is).',
      reason: 'Unset: positionId (the spec\'s name for it on positions) when there, else the one string field named like an id; set it to name the field.',
    }),
    repay: doc(z.string().min(1).optional(), {
      spec: 'Part 2: "repay result: not shown" (where the position id is, if anywhere).',
      reason: 'Unset: found as the field holding the repaid position\'s id; set it to name the field.',
    }),
  })
  .prefault({});

export const fundingOptions = z
  .object({
    userIds: doc(z.array(z.string().min(1)).default([]), {
      spec: 'How a user gets funds: not part of the interface (a sandbox may pre-fund users; lendcheck\'s own has a control).',
      reason: 'Empty: a new user is tried first (many sandboxes pre-fund users); name users your target already funds here.',
    }),
    request: doc(
      z.object({ method: z.enum(['POST', 'PUT']), path: z.string().regex(/^\/\S*$/), body: z.record(z.string(), z.unknown()).optional() }).optional(),
      {
        spec: 'How a user gets funds: not part of the interface.',
        reason: 'Unset: a request the target offers to fund a user ({userId} in path or body strings is replaced), for targets without pre-funding.',
      },
    ),
  })
  .prefault({});
