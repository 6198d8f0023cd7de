// The values --help prints (defaults, choice lists), as plain literals. The command files
// register their options from these, not from the modules that own the values, so that
// `lendcheck --help` and a one-line input error load no part of lendcheck: the parts are
// imported inside each command's action. option-values.test.ts fails when one drifts from
// its owner (reports/writers.ts, cli/gate/steps.ts, …).

export const DEFAULT_REPORT_DIR = 'lendcheck-reports';
/** The signature scheme names (contract/signature-schemes.ts), as their forms: --help lists them so. */
export const SIGNATURE_SCHEME_FORMS = 't-v1-hmac-sha256 (default), hmac-sha256-hex, standard-webhooks, hmac-<sha256|sha512|sha1>-<hex|base64>[-prefixed|-v1|-v1-comma] (prefix <alg>=, v1= or v1,), t-v1-hmac-<sha256|sha512|sha1>[-base64]';
export const DEFAULT_HISTORY_FILE = 'lendcheck-reports/history.db';
export const REPORTER_NAMES = ['html', 'junit', 'json'];
export const GATE_STEP_NAMES = ['contract', 'conformance', 'load', 'chaos', 'certify'];
export const LOAD_SCENARIOS = ['rate-limit', 'matching', 'mixed'] as const;
export const DEFAULT_MAX_WAIT_S = 120;
export const DETECT_DEFAULT_MAX_REQUESTS = 100;
export const DETECT_FULL_REQUESTS = 220;
export const DEFAULT_WATCHED_RETRIES = 2;
export const METRICS_PATH = '/metrics';
/** The embedded sandbox's Growth test key (sandbox/auth/keys.ts DEFAULT_KEYS): a public test key, not a secret. */
export const SANDBOX_TEST_KEY = 'ck_test_partner_a_growth';
export const SANDBOX_FAULT_NAMES = [
  'withdraw-race', 'lend-race', 'borrow-race', 'cancel-race', 'repay-race', 'patch-lost-update', 'cursor-shift', 'counter-race',
  'partner-leak', 'match-overfill', 'stale-read', 'withdraw-not-debited', 'cancel-double-refund', 'owner-unchecked-get',
  'owner-unchecked-cancel', 'owner-unchecked-patch', 'owner-unchecked-repay', 'list-ignores-partner', 'user-unscoped',
  'lend-asset-from-collateral', 'depth-ignored-below-default', 'hasmore-on-full-last-page', 'hook-cross-partner',
  'hook-unsubscribed-types', 'hook-matched-one-side', 'hook-sender-timeout', 'hook-new-id-per-retry', 'hook-early-retry',
  'hook-no-retries', 'hook-resigned-body', 'webhook-list-ignores-partner', 'webhook-delete-unchecked', 'slow-refill',
];
/** `conformance --plan`: each plan's name and what it runs (conformance/plans.ts PLANS). */
export const CONFORMANCE_PLANS: ReadonlyArray<readonly [string, string]> = [
  ['full', "every check (the default, and the gate's)"],
  ['quick', 'money under overlap, partner isolation, error objects and rate-limit headers, in at most 150 requests: for a pre-commit hook or a watch mode'],
];
