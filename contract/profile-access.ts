import { z } from 'zod';
import { doc } from './profile-doc.ts';

// The profile's options about one partner touching another's objects (part 1: a partner acts
// for its own users). Part of the profile (contract/profile.ts); kept here so that file stays
// within its size. The authorization matrix (conformance/authz/) reads them.

export const accessOptions = z
  .object({
    foreignStatus: doc(z.enum(['404', '403']).default('404'), {
      spec: 'Part 7: position_not_found 404 "Position does not exist"; the answer to another partner\'s object: not shown.',
      reason: '404: another partner\'s object reads exactly as a missing one, so its existence is not disclosed. A target answering 403 states it here; anything else (a 2xx, a 400 about the object\'s state) discloses or acts.',
    }),
  })
  .prefault({});
