// A value the spec leaves open that the profile records as unknown (null): detection could
// not read it, and a default in its place would be a guess that can fail a correct service
// (issue 47, mutator seed 28: a collateral ratio of 2.97, refused pledges under the default
// 1.5). Whatever needs it throws this; the conformance runner turns it into a skip whose
// reason names the option, so the user knows what to set.

export class UnknownOption extends Error {
  constructor(
    readonly option: string,
    need: string,
  ) {
    super(`${need} needs profile ${option}, which is unknown (detection could not read it; set it in the profile)`);
    this.name = 'UnknownOption';
  }
}

/** The option's value, or UnknownOption naming it and what needed it. */
export function known<T>(value: T | null | undefined, option: string, need: string): T {
  if (value === null || value === undefined) throw new UnknownOption(option, need);
  return value;
}
