import { faultRegistry, type NameOf } from '../../../faults/index.ts';
import { AUTH_MUTANTS } from './auth.ts';
import { CONTRACT_MUTANTS } from './contract.ts';
import { ERROR_MUTANTS } from './errors.ts';
import { HOOK_MUTANTS } from './hooks.ts';
import type { Mutant } from './mutant.ts';
import { LIFECYCLE_MUTANTS } from './lifecycle.ts';
import { LIMIT_MUTANTS } from './limits.ts';
import { PAGINATION_MUTANTS } from './pagination.ts';

// The mutant catalogue, in one typed registry (faults/registry.ts): id → mutant, so
// `MUTANT_REGISTRY.get('auth.403-not-401')` is checked by tsc and a duplicate id throws at
// construction. Each breaks one rule of the spec (or, marked strictOnly, one profile choice);
// the mutant test serves each over real HTTP and expects the suite to catch it.

export const MUTANT_REGISTRY = faultRegistry(...CONTRACT_MUTANTS, ...AUTH_MUTANTS, ...PAGINATION_MUTANTS, ...ERROR_MUTANTS, ...LIMIT_MUTANTS, ...LIFECYCLE_MUTANTS, ...HOOK_MUTANTS);

/** A mutant's id, as tsc knows it. */
export type MutantId = NameOf<(typeof MUTANT_REGISTRY.all)[number]>;

export const MUTANTS: Mutant[] = [...MUTANT_REGISTRY.all];

/** By id, for ids that arrive as text (`--only`); in code, `MUTANT_REGISTRY.get` checks the id. */
export const MUTANTS_BY_ID: ReadonlyMap<string, Mutant> = new Map(MUTANTS.map((m) => [m.id, m]));

export type { Mutant };
