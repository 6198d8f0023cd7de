import { atPath, sideLevels, type BookLevel, type BookSide, type Profile } from '../../contract/index.ts';
import { show } from '../check.ts';

// The authenticated order book's levels, where the profile says they live (orderbookLevels; part
// 4: "Response body: not shown"). Only the public book's `{lends, borrows}` is stated by the spec,
// so a check counting the keyed book's levels reads them by the profile, never by fixed keys:
// a side the profile does not know (null) is not read, and what needs it says which option
// supplies it (issue 51: mutator seeds without a top-level `lends`).

export type SideName = 'lends' | 'borrows';
export const SIDES: readonly SideName[] = ['lends', 'borrows'];

/** The sides the profile locates (a known BookSide each). */
export function knownSides(profile: Profile): Array<[SideName, BookSide]> {
  return SIDES.flatMap((s) => (profile.orderbookLevels[s] ? [[s, profile.orderbookLevels[s]!] as [SideName, BookSide]] : []));
}

/** Why a side cannot be read: the option that supplies it. */
export const unknownSide = (s: SideName) => `the profile does not know where the authenticated order book keeps its ${s} (orderbookLevels.${s} unknown: profile detect found no array gaining a resting ${s === 'lends' ? 'lend' : 'borrow'} it placed; set it in the profile)`;

/**
 * Each known side's levels in an answer of the keyed book; `missing` names a known side whose
 * path holds no array there. The path is from the body's root; a profile written for the bare
 * body is also read under a `{data}` wrapper.
 */
export function authBookSides(profile: Profile, json: unknown): { sides: Partial<Record<SideName, BookLevel[]>>; missing: string[] } {
  const sides: Partial<Record<SideName, BookLevel[]>> = {};
  const missing: string[] = [];
  const inner = (json as { data?: unknown } | undefined)?.data;
  for (const [s, side] of knownSides(profile)) {
    const levels = sideLevels(json, side) ?? (inner !== undefined && !Array.isArray(atPath(json, side.path)) ? sideLevels(inner, side) : undefined);
    if (levels) sides[s] = levels;
    else missing.push(`${s} at ${side.path} (orderbookLevels.${s})`);
  }
  return { sides, missing };
}

/** Why an answer could not be read for levels, for a skip. */
export const unreadBook = (json: unknown, missing: string[]) => `the order book answered ${show(json).slice(0, 160)}, with no array of ${missing.join(' nor ')} to count levels in (the body is not shown by the spec: set orderbookLevels in the profile, or let profile detect find it)`;
