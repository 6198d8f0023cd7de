// One exit-code table for every command: what a CI reads. The README's table and every
// command's --help print EXIT_CODE_HELP, so the three cannot drift apart.

export const EXIT = {
  /** Everything asked for was checked and held. */
  pass: 0,
  /** A rule was broken (a check failed). */
  fail: 1,
  /** The user's mistake: a bad option, an unreadable file, an unreachable target, a refused key. Nothing was checked. */
  usage: 2,
  /** Nothing failed, but something could not be observed (every check skipped, a retry still due, an interrupted run). */
  incomplete: 3,
} as const;

export const EXIT_CODE_HELP = `
Exit codes (every command):
  0  PASS        everything asked for was checked and held
  1  FAIL        a rule was broken (a check failed)
  2  input error a bad option, an unreadable file, an unreachable target or a refused key; nothing was checked
  3  INCOMPLETE  nothing failed, but something could not be observed (e.g. every check skipped)`;

/** A mistake of the user's (bad option, unreadable file, unreachable target, refused key): one line, exit 2. */
export class InputError extends Error {
  override name = 'InputError';
}
