import { CheckFailure, unaffordable, type Check } from '../check.ts';
import { conservation } from './checks/conservation.ts';
import { isolation } from './checks/isolation.ts';
import { matchingNoOverfill } from './checks/matching.ts';
import { overcommitChecks } from './checks/overcommit.ts';
import { paginationUnderWrites } from './checks/pagination.ts';
import { transitionChecks } from './checks/transition.ts';
import { patchNoLostUpdate, readAfterWrite } from './checks/writes.ts';

// The concurrency family: storms of overlapping requests on one user, checked against what
// a serial run allows (ids `concurrency.*`; `--only 'concurrency.*'` runs them alone).

/** A set-up request (a fixture's lend or funding) refused with 429 even after waiting once is
 *  the rate limit's doing, not the target's failure: the check skips, saying so. */
function rateLimitSkips(check: Check): Check {
  return {
    ...check,
    async run(ctx) {
      try {
        return await check.run.call(check, ctx);
      } catch (e) {
        if (e instanceof CheckFailure && /^(status )?429\b/.test(e.received)) {
          throw unaffordable(`a set-up request answered 429 twice (${e.title}): the target's rate limit leaves no room for this check now`);
        }
        throw e;
      }
    },
  };
}

export const concurrencyChecks = (): Check[] => [
  ...overcommitChecks(),
  ...transitionChecks(),
  conservation,
  isolation,
  paginationUnderWrites,
  patchNoLostUpdate,
  matchingNoOverfill,
  readAfterWrite,
].map(rateLimitSkips);
