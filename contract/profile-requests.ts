import { z } from 'zod';
import { doc } from './profile-doc.ts';

// Options about what a target does with the requests it is sent, where the spec is silent.
// Part of the profile (contract/profile.ts); kept here so that file stays within its size.

export const UNKNOWN_FIELD_POLICIES = ['ignore', 'reject'] as const;

export const requestsOptions = z
  .object({
    unknownFields: doc(z.enum(UNKNOWN_FIELD_POLICIES).default('ignore'), {
      spec: 'Part 2 lists each request body\'s fields; what a body with a field it does not list gets: not shown.',
      reason: 'Ignored (a forward-compatible reader); `reject` answers 400 invalid_request naming the field, and the exported document then closes request bodies (additionalProperties: false).',
    }),
  })
  .prefault({});
