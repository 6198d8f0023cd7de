import type { Check } from '../check.ts';
import { conservation } from './checks/conservation.ts';
import { isolation } from './checks/isolation.ts';
import { matchingNoOverfill } from './checks/matching.ts';
import { overcommitChecks } from './checks/overcommit.ts';
import { paginationUnderWrites } from './checks/pagination.ts';
import { transitionChecks } from './checks/transition.ts';
import { patchNoLostUpdate, readAfterWrite } from './checks/writes.ts';

// The concurrency family: storms of overlapping requests on one user, checked against what
// a serial run allows (ids `concurrency.*`; `--only 'concurrency.*'` runs them alone).

export const concurrencyChecks = (): Check[] => [
  ...overcommitChecks(),
  ...transitionChecks(),
  conservation,
  isolation,
  paginationUnderWrites,
  patchNoLostUpdate,
  matchingNoOverfill,
  readAfterWrite,
];
