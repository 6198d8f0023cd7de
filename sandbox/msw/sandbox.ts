import { API_VERSION_PREFIX, defaultProfile, parseProfile, WEBHOOK_RESPONSE_DEADLINE_MS, type Profile } from '../../contract/index.ts';
import { createClient } from '../../contract/client.ts';
import type { Sandbox } from '../app.ts';
import { DEFAULT_KEYS, KeyStore, type KeyEntry } from '../auth/keys.ts';
import { TestClock } from '../engine/clock.ts';
import type { KeyInfo } from '../pipeline/plugin.ts';
import { createConfiguredSandbox } from '../start.ts';
import { readMockedClones } from './bodies.ts';
import { durationMs } from './duration.ts';
import { lendcheckHandlers } from './handlers.ts';
import { settleWebhooks } from './settle.ts';
import type { MswSandbox, MswSandboxOptions, WebhookHandler } from './types.ts';
import { mswSender } from './webhooks.ts';

// The sandbox for a partner's own tests through msw: the engine in memory (':memory:', no
// port, no process), a business clock that stands still until the test advances it, and
// webhooks signed as the profile says, sent to the partner's URL (which msw may intercept) or
// straight to a handler function. The options map onto the CLI's sandbox (start.ts), so this
// is the same sandbox `lendcheck sandbox` serves.

/** The msw sandbox with the whole engine underneath (in-repo callers; the package declares
 *  `sandbox` as the narrower SandboxHandle, types.ts). */
export interface LocalMswSandbox extends MswSandbox {
  sandbox: Sandbox;
}

export const DEFAULT_MSW_BASE_URL = `https://sandbox.lendcheck.test${API_VERSION_PREFIX}`;

export function createMswSandbox(opts: MswSandboxOptions = {}): LocalMswSandbox {
  // A partial profile is merged over the defaults as the CLI reads `--profile FILE`
  // (parseProfile); an invalid field throws naming it.
  const profile: Profile = opts.profile === undefined ? defaultProfile : parseProfile(opts.profile);
  const keys = opts.keys ?? DEFAULT_KEYS;
  const startMs = opts.startAt === undefined ? Date.now() : +opts.startAt;
  // Real time never moves it: only advance() does.
  const clock = new TestClock({ startMs, realNow: () => 0 });
  let handler: WebhookHandler | undefined;
  const send = mswSender(() => handler, WEBHOOK_RESPONSE_DEADLINE_MS);
  const sandbox = createConfiguredSandbox({
    profile,
    keys,
    clock,
    // Due work runs on advance(), not on a timer.
    tickMs: 0,
    rateLimits: limitsOn(opts.rateLimits, keys, profile, () => clock.now()),
    liquidity: opts.liquidity === true,
    controls: opts.controls,
    ...(opts.startingFunds ? { startingFunds: opts.startingFunds } : {}),
    ...(opts.validateResponses !== undefined ? { validateResponses: opts.validateResponses } : {}),
    // The report's probe goes where deliveries go, and "waited for X-RateLimit-Reset" is
    // judged on the clock the limiter runs on here: the test clock.
    partnerReport: { send, now: () => clock.now() },
    webhooks: { send, pollMs: 5, ...(opts.retryDelaysMs ? { retryDelaysMs: opts.retryDelaysMs } : {}) },
  });
  const baseUrl = (opts.baseUrl ?? DEFAULT_MSW_BASE_URL).replace(/\/+$/, '');
  const fetch = (req: Request) => sandbox.fetch(req);
  const settle = () => settleWebhooks(sandbox);
  const tierOf = (e: KeyEntry) => e.tier ?? profile.limits.defaultTier;
  // With no tier asked, a Growth key (the middle bucket) where there is one: a partner's first
  // tests should not meet the smallest limit by accident.
  const key = (partnerId?: string, tier?: string): string => {
    const mine = keys.filter((e) => partnerId === undefined || e.partnerId === partnerId);
    const k = tier === undefined ? (mine.find((e) => tierOf(e) === 'growth') ?? mine[0]) : mine.find((e) => tierOf(e) === tier);
    if (!k) throw new Error(`no key of partner ${partnerId ?? '(any)'} and tier ${tier ?? '(any)'} among ${keys.length} keys`);
    return k.key;
  };
  return {
    handlers: lendcheckHandlers({ fetch, baseUrl }),
    baseUrl,
    keys,
    key,
    client: (k) => createClient({ baseUrl, key: k ?? key(), ...(profile.ratesPath ? { ratesPath: profile.ratesPath } : {}) }),
    clock: {
      now: () => new Date(clock.now()),
      async advance(by) {
        await settle();
        clock.advance(durationMs(by));
        await settle();
      },
    },
    attach: (server) => readMockedClones(server, baseUrl),
    onWebhook(h) {
      handler = h;
      return () => {
        if (handler === h) handler = undefined;
      };
    },
    settle,
    fetch,
    partnerReport: (p) => sandbox.partnerReport(p),
    sandbox,
    close: () => sandbox.close(),
  };
}

/** The limiter's options for the msw way: the test clock, and only the callers chosen. */
function limitsOn(o: MswSandboxOptions['rateLimits'], keys: KeyEntry[], profile: Profile, now: () => number) {
  if (o === false) return false;
  const clocked = { now, wallNow: now };
  if (o === undefined || o === true) return clocked;
  const store = new KeyStore(keys, profile);
  const ids = new Set((o.keys ?? []).map((k) => store.lookup(k)?.keyId).filter((id): id is string => id !== undefined));
  const tiers = new Set(o.tiers ?? []);
  const applies = (c: KeyInfo | undefined) => (c ? tiers.has(c.tier) || ids.has(c.keyId) : o.public === true);
  return { ...clocked, applies };
}
