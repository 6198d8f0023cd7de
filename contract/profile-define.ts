import { defaultProfile, loadProfile, parseProfile, type Profile, type ProfileInput } from './profile.ts';

// `lendcheck/profile`: a profile (every "not shown" choice of the spec, contract/profile.ts) for
// a partner's tests, built the way the CLI builds one from `--profile FILE` (loadProfile:
// parseProfile over the defaults), so a partial profile here and in a file mean the same.

export { defaultProfile, loadProfile, parseProfile };
export type { Profile, ProfileInput };

/**
 * The defaults with `partial` merged over them, field by field at every depth (the schema's own
 * defaults fill what is left out), exactly as `--profile FILE` is read. An invalid field throws
 * naming it: `invalid profile: markets.idSeparator: Invalid input: expected string, received number`.
 */
export function defineProfile(partial: ProfileInput = {}): Profile {
  return parseProfile(partial);
}
