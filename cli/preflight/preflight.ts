import { routePath } from '../../contract/fill-path.ts';
import { KEY_PREFIX } from '../../contract/constants.ts';
import { InputError } from '../exit-codes.ts';

// Preflight: before any check runs or any rate-limit bucket is spent, a handful of requests
// (one public, one per distinct key) tell a user's mistake from a verdict on the target:
// - the target does not answer (address and error);
// - the base URL does not look like the interface (no /v1; HTML or a 404 where JSON was expected);
// - a key is refused (401 on a keyed probe), naming the option that carried it, never its value;
// - a ck_live_ key without the opt-in.
// Each is one line and exit 2 (InputError). A wrong key never becomes a run of failures.

/** A key as the user gave it: the option (or environment variable) that carried it. */
export interface GivenKey {
  option: string;
  key: string | undefined;
}

export interface PreflightTarget {
  /** The option the base URL came from (named in the messages). */
  urlOption?: string;
  baseUrl: string;
  publicBaseUrl?: string;
  keys: GivenKey[];
  /** Whether the user opted into ck_live_ keys, and by which option. */
  allowLive: boolean;
  liveOption?: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** Refuses ck_live_ keys without the opt-in; no request. */
export function refuseLive(keys: GivenKey[], allowLive: boolean, liveOption = '--allow-live'): void {
  const live = keys.find((k) => k.key?.startsWith(KEY_PREFIX.production));
  if (live && !allowLive) throw new InputError(`${live.option}: a ${KEY_PREFIX.production} (production) key is refused without ${liveOption}; use a ${KEY_PREFIX.sandbox} key, or pass ${liveOption} to use it on purpose`);
}

/** The base URL, parsed and checked to end in /v1 (spec part 9); no request. */
export function checkBaseUrl(baseUrl: string, option = '--base-url'): URL {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new InputError(`${option}: not a URL: "${baseUrl}"; expected e.g. https://sandbox.example.com/v1`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InputError(`${option}: expected an http or https URL, got "${u.protocol}"`);
  if (!/\/v1\/?$/.test(u.pathname)) {
    const hint = `${u.origin}${u.pathname.replace(/\/+$/, '')}/v1`;
    throw new InputError(`${option} ${u.origin}${u.pathname} does not end in /v1, where the interface lives (spec part 9: the version is in the base path); did you mean ${hint}?`);
  }
  return u;
}

export interface ProbeAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** One GET with a bound on time; a transport error becomes "does not answer". */
export async function probe(url: string, key: string | undefined, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ProbeAnswer> {
  try {
    // undici loads on the first probe, not with the CLI (--help never needs it).
    const { request } = await import('undici');
    const r = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await r.body.text()).slice(0, 2_000);
    const ct = r.headers['content-type'];
    return { status: r.statusCode, contentType: (Array.isArray(ct) ? ct[0] : ct) ?? '', body };
  } catch (e) {
    const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
    const code = err.code ?? err.cause?.code;
    const what = err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${timeoutMs / 1000} s` : [code, err.cause?.message ?? err.message].filter(Boolean).join(' ');
    throw new InputError(`the target does not answer: ${new URL(url).origin}: ${what}`);
  }
}

const looksHtml = (a: ProbeAnswer) => /html/i.test(a.contentType) || /^\s*<(!doctype|html|head|body)/i.test(a.body);
const isJson = (a: ProbeAnswer) => /json/i.test(a.contentType) || /^\s*[{[]/.test(a.body);
const found = (a: ProbeAnswer) => `${a.status} ${a.contentType || 'no content-type'}${a.body.trim() ? `: "${a.body.trim().replace(/\s+/g, ' ').slice(0, 60)}${a.body.trim().length > 60 ? '…' : ''}"` : ''}`;

/** The interface's shape at a public path: JSON, not HTML. */
function judgeInterface(url: string, a: ProbeAnswer, urlOption: string): void {
  if (looksHtml(a)) throw new InputError(`${urlOption}: GET ${url} answered HTML where the interface answers JSON (${found(a)}); is this the API's base address, ending in /v1?`);
  // A JSON 404 is left to the checks: a target may serve its public endpoints elsewhere
  // (--public-base-url) or not at all, and then its checks skip saying so (never a false FAIL).
  if (!isJson(a) && a.status < 500) throw new InputError(`${urlOption}: GET ${url} answered ${found(a)}, not the interface's JSON`);
}

/** Whether the target refused a key: 401 (spec part 5.4) on a keyed read. */
function judgeKey(k: GivenKey, a: ProbeAnswer, url: string, urlOption: string): void {
  if (looksHtml(a)) throw new InputError(`${urlOption}: GET ${url} answered HTML where the interface answers JSON (${found(a)})`);
  if (a.status === 401) throw new InputError(`${k.option}: the target refused this key (401 on GET ${new URL(url).pathname}); check the key, and that it is for this target (sandbox keys start ${KEY_PREFIX.sandbox})`);
}

/** Every check above, in order; throws the first InputError. */
export async function preflight(t: PreflightTarget): Promise<void> {
  const urlOption = t.urlOption ?? '--base-url';
  refuseLive(t.keys, t.allowLive, t.liveOption);
  const base = checkBaseUrl(t.baseUrl, urlOption).href.replace(/\/+$/, '');
  const pub = t.publicBaseUrl ? checkBaseUrl(t.publicBaseUrl, '--public-base-url').href.replace(/\/+$/, '') : base;
  const timeoutMs = t.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const marketsUrl = `${pub}${routePath('public.markets')}`;
  judgeInterface(marketsUrl, await probe(marketsUrl, undefined, timeoutMs), t.publicBaseUrl ? '--public-base-url' : urlOption);
  // One keyed read per distinct key, side by side. A position nobody has: a valid key gets a
  // 404 (or whatever the target answers), a refused one 401. Nothing is created.
  const distinct = [...new Map(t.keys.filter((k) => k.key).map((k) => [k.key, k])).values()];
  const url = `${base}${routePath('position.get', { positionId: 'lendcheck-preflight-0' })}`;
  const answers = await Promise.all(distinct.map(async (k) => ({ k, a: await probe(url, k.key, timeoutMs) })));
  for (const { k, a } of answers) judgeKey(k, a, url, urlOption);
}

/** A key from an option or its environment twin, named by whichever carried it. */
export function givenKey(option: string, value: string | undefined, env?: string): GivenKey {
  if (value !== undefined) return { option, key: value };
  return { option: env ?? option, key: env ? process.env[env] : undefined };
}

/** A receiver URL (chaos certify, listen --forward-to): something must answer there; any HTTP status will do. */
export async function preflightReceiver(url: string, option: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  try {
    new URL(url);
  } catch {
    throw new InputError(`${option}: not a URL: "${url}"`);
  }
  try {
    await probe(url, undefined, timeoutMs);
  } catch (e) {
    throw new InputError(`${option}: ${(e as Error).message.replace(/^the target/, 'the receiver')}`);
  }
}
