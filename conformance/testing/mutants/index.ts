import { AUTH_MUTANTS } from './auth.ts';
import { CONTRACT_MUTANTS } from './contract.ts';
import { ERROR_MUTANTS } from './errors.ts';
import { HOOK_MUTANTS } from './hooks.ts';
import type { Mutant } from './mutant.ts';
import { LIFECYCLE_MUTANTS } from './lifecycle.ts';
import { LIMIT_MUTANTS } from './limits.ts';
import { PAGINATION_MUTANTS } from './pagination.ts';

// The mutant catalogue: id → mutant. Each breaks one rule of the spec (or, marked
// strictOnly, one profile choice); the mutant test serves each over real HTTP and
// expects the suite to catch it.

export const MUTANTS: Mutant[] = [...CONTRACT_MUTANTS, ...AUTH_MUTANTS, ...PAGINATION_MUTANTS, ...ERROR_MUTANTS, ...LIMIT_MUTANTS, ...LIFECYCLE_MUTANTS, ...HOOK_MUTANTS];

export const MUTANTS_BY_ID = new Map(MUTANTS.map((m) => [m.id, m]));
if (MUTANTS_BY_ID.size !== MUTANTS.length) throw new Error('duplicate mutant id');

export type { Mutant };
