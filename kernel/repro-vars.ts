// The environment variables a reproduction's shell lines use in place of what must not be
// written (keys, secrets) or what was only lendcheck's for the run (its receiver's URL).
// Suites name them when they record; reports/repro renders them. Keys use the CLI's own
// variables (LENDCHECK_API_KEY, LENDCHECK_API_KEY_2, LENDCHECK_BURST_KEY).

/** Who holds a webhook signing secret (the record has it masked as whsec_***). */
export const SECRET_VAR = 'LENDCHECK_WEBHOOK_SECRET';
/** Where lendcheck's own receiver was: a reader points the subscription at their own. */
export const RECEIVER_VAR = 'LENDCHECK_RECEIVER_URL';
