// The table of a user's mistakes: each command that talks to a target, with each kind of
// mistake, and the one line it must end in (exit 2: an input error; nothing was checked).

export interface Targets {
  /** The sandbox, as a user's target: http://127.0.0.1:PORT/v1. */
  base: string;
  /** Its origin without /v1. */
  origin: string;
  /** A port nothing listens on. */
  dead: string;
  /** A web server answering HTML to everything, at /v1. */
  html: string;
  /** A failures file whose run's target is `base`. */
  failures: string;
  /** Where a case may write (detect's --out). */
  tmp: string;
}

export interface MistakeCase {
  name: string;
  args: (t: Targets) => string[];
  /** The one line (stderr) must match. */
  line: RegExp;
  /** Files that must not exist afterwards. */
  noFile?: (t: Targets) => string;
}

const GOOD = 'ck_test_partner_a_growth';
const WRONG = 'ck_test_nobody_has_this_key';
const SECRET = 'whsec_' + 'c2VjcmV0LXNlY3JldC1zZWNyZXQ=';
const REFUSED = /^lendcheck: --api-key: the target refused this key \(401 on GET \S+\)/;
const DEAD = /^lendcheck: (--url: )?the (target|receiver) does not answer: http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/;
const NO_V1 = /does not end in \/v1, where the interface lives .*did you mean http:\/\/127\.0\.0\.1:\d+\/v1\?$/;
const HTML = /answered HTML where the interface answers JSON \(200 text\/html/;
const BAD_PROFILE = /^lendcheck: cannot read profile \/nonexistent\/profile\.json/;
const BAD_OPTION = /^lendcheck: unknown option '--frobnicate'; see node \S*cli\/bin\.js [a-z ]+ --help$/;
const LIVE = /^lendcheck: --api-key: a ck_live_ \(production\) key is refused without --[a-z-]+/;

/** Each command and how it is pointed at a target with a key. */
const COMMANDS: Array<{ name: string; at: (url: string, key: string, t: Targets) => string[]; profile?: boolean; noLive?: boolean }> = [
  { name: 'conformance', at: (u, k) => ['conformance', '--base-url', u, '--api-key', k], profile: true },
  { name: 'gate', at: (u, k) => ['gate', '--base-url', u, '--api-key', k], profile: true },
  { name: 'load', at: (u, k) => ['load', '--scenario', 'rate-limit', '--tier', 'growth', '--smoke', '--base-url', u, '--api-key', k], profile: true },
  { name: 'profile detect', at: (u, k, t) => ['profile', 'detect', '--base-url', u, '--api-key', k, '--out', `${t.tmp}/detected.json`] },
  { name: 'chaos schedule', at: (u, k) => ['chaos', 'schedule', '--base-url', u, '--api-key', k], profile: true },
  { name: 'chaos retries', at: (u, k) => ['chaos', 'retries', '--base-url', u, '--api-key', k], profile: true },
  { name: 'listen', at: (u, k) => ['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--base-url', u, '--api-key', k], profile: true },
  { name: 'replay', at: (u, k, t) => ['replay', t.failures, '--base-url', u, '--api-key', k], profile: true, noLive: true },
];

export const CASES: MistakeCase[] = [
  ...COMMANDS.flatMap((c): MistakeCase[] => [
    { name: `${c.name}: wrong key`, args: (t) => c.at(t.base, WRONG, t), line: REFUSED, ...(c.name === 'profile detect' ? { noFile: (t: Targets) => `${t.tmp}/detected.json` } : {}) },
    { name: `${c.name}: dead address`, args: (t) => c.at(t.dead, GOOD, t), line: DEAD },
    { name: `${c.name}: no /v1`, args: (t) => c.at(t.origin, GOOD, t), line: NO_V1 },
    { name: `${c.name}: HTML answer`, args: (t) => c.at(t.html, GOOD, t), line: HTML },
    { name: `${c.name}: bad option`, args: (t) => [...c.at(t.base, GOOD, t), '--frobnicate'], line: BAD_OPTION },
    // replay judges ck_live_ keys by the replayed checks' own read-only rule, not up front.
    ...(c.noLive ? [] : [{ name: `${c.name}: ck_live_ key`, args: (t: Targets) => c.at(t.base, 'ck_live_not_opted_in', t), line: LIVE }]),
    ...(c.profile ? [{ name: `${c.name}: bad profile file`, args: (t: Targets) => [...c.at(t.base, GOOD, t), '--profile', '/nonexistent/profile.json'], line: BAD_PROFILE }] : []),
  ]),
  { name: 'chaos certify: dead address', args: (t) => ['chaos', 'certify', '--url', `${t.dead}/hooks`, '--secret', SECRET], line: DEAD },
  { name: 'chaos certify: bad profile file', args: () => ['chaos', 'certify', '--url', 'http://127.0.0.1:9/hooks', '--secret', SECRET, '--profile', '/nonexistent/profile.json'], line: BAD_PROFILE },
  { name: 'chaos certify: bad option', args: () => ['chaos', 'certify', '--url', 'http://127.0.0.1:9/hooks', '--secret', SECRET, '--frobnicate'], line: BAD_OPTION },
  { name: 'load: bad tier', args: () => ['load', '--scenario', 'rate-limit', '--tier', 'platinum'], line: /^lendcheck: option '--tier <tier>' argument 'platinum' is invalid\. Allowed choices are starter, growth, scale; see node \S*cli\/bin\.js load --help$/ },
  { name: 'listen: no --forward-to', args: () => ['listen'], line: /^lendcheck: required option '--forward-to <url>' not specified; see node \S*cli\/bin\.js listen --help$/ },
  { name: 'unknown command', args: () => ['frobnicate'], line: /^lendcheck: unknown command 'frobnicate'; see node \S*cli\/bin\.js --help$/ },
];
