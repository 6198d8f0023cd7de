import { request } from 'undici';
import { endpoints, endpointSuccess, type Endpoint } from '../../contract/endpoints.ts';
import { citing, judgeSuccess } from '../../contract/assertable.ts';
import type { Profile } from '../../contract/index.ts';
import { buildOpenApi } from '../../contract/openapi/document.ts';
import { diffOpenApi, findingText } from './openapi-diff.ts';
import type { CheckResult, Exchange, PartResult } from '../../kernel/results.ts';
import type { GateTarget } from './target.ts';

// The gate's contract step checks the TARGET against the contract, never lendcheck's own
// files (those are unit-tested): (1) the target's answers on the GET endpoints it can be
// asked safely (no path parameters, no side effects) parse with the contract's schemas under
// the profile; (2) where the target serves its own OpenAPI document, it agrees with the one
// lendcheck exports under the profile, each difference a finding (cli/gate/openapi-diff.ts). A check that could not be made is skipped with
// its reason; a step where nothing could be checked is skipped, never passed.

const TIMEOUT_MS = 10_000;

/** Where services commonly publish their OpenAPI document, relative to the base URL and to its origin. */
export const OPENAPI_PATHS = ['/openapi.json', '/openapi', '/swagger.json', '/docs/openapi.json', '/.well-known/openapi.json', '/api-docs'];

interface Answer {
  status: number | null;
  body: string;
  contentType: string;
  durationMs: number;
  error?: string;
  /** Whether the gate's --api-key went with it (a reproduction then names LENDCHECK_API_KEY). */
  withKey?: boolean;
}

async function get(url: string, apiKey: string | undefined): Promise<Answer> {
  const t0 = performance.now();
  try {
    const r = await request(url, { method: 'GET', headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    const body = await r.body.text();
    return { status: r.statusCode, body, contentType: String(r.headers['content-type'] ?? ''), durationMs: Math.round(performance.now() - t0), withKey: !!apiKey };
  } catch (e) {
    return { status: null, body: '', contentType: '', durationMs: Math.round(performance.now() - t0), error: (e as Error).message, withKey: !!apiKey };
  }
}

function exchangeOf(url: string, a: Answer): Exchange {
  return {
    method: 'GET',
    url,
    status: a.status,
    requestHeaders: {},
    responseHeaders: a.contentType ? { 'content-type': a.contentType } : {},
    responseBody: a.body.slice(0, 4000),
    durationMs: a.durationMs,
    ...(a.error ? { error: a.error } : {}),
    ...(a.withKey ? { credential: 'LENDCHECK_API_KEY' } : {}),
  };
}

const check = (id: string, title: string, requirements: string[], status: CheckResult['status'], durationMs: number, message?: string, exchange?: Exchange): CheckResult => ({
  id,
  title,
  requirements,
  status,
  durationMs,
  notes: [],
  ...(message ? { message } : {}),
  ...(exchange ? { exchange } : {}),
});

/** The GETs a gate may make against any target: no path parameters, no state change. */
export function safeGets(profile: Profile, hasKey: boolean): Endpoint[] {
  return endpoints(profile).filter((e) => e.method === 'GET' && !e.path.includes('{') && (e.access === 'public' || (e.access === 'key' && hasKey)));
}

/** One endpoint's answer against its success schema. */
export async function checkAnswerShape(target: GateTarget, profile: Profile, e: Endpoint): Promise<CheckResult> {
  const url = `${target.baseUrl}${e.path}`;
  const id = `answer-shape ${e.id}`;
  const title = `GET ${e.path} answers with what the spec and the profile say of the ${e.id} body`;
  const a = await get(url, e.access === 'key' ? target.apiKey : undefined);
  const want = endpointSuccess(profile, e);
  if (a.status === null) return check(id, title, e.requirements, 'failed', a.durationMs, `expected an HTTP answer / received ${a.error}`, exchangeOf(url, a));
  // A plain GET never justifies a server error; a correct service may still refuse or omit
  // it for reasons the conformance step judges (auth, rate limit), so those are skips.
  if (a.status >= 500) return check(id, title, e.requirements, 'failed', a.durationMs, `expected ${want} / received ${a.status}`, exchangeOf(url, a));
  // Which 2xx is the profile's choice (a note below); any other answer has no success body to judge.
  if (a.status < 200 || a.status > 299) return check(id, title, e.requirements, 'skipped', a.durationMs, `answered ${a.status}, not a 2xx (profile: ${want}): no success body to check (the conformance step judges statuses)`);
  let json: unknown;
  try {
    json = JSON.parse(a.body);
  } catch {
    json = undefined;
  }
  // What may be required of this answer is contract/assertable.ts's to say, as in the conformance
  // step: the spec's schema where it shows the body, else JSON and the profile's named id; the rest is advice.
  const j = judgeSuccess(profile, e, { status: a.status, json, text: a.body, contentType: a.contentType });
  const broken = j.failures[0];
  if (broken) return check(id, title, e.requirements, 'failed', a.durationMs, `expected ${broken.expected} / received ${broken.received}${citing(broken)}`, exchangeOf(url, a));
  const notes = [...j.notes, ...j.choices.filter((c) => !c.followed).map((c) => `profile option ${c.option}: expected ${c.expected}, received ${c.received ?? 'something else'} (the spec leaves it open)`)];
  // Advice (a same-named field of another type where the spec shows no body): shown, never failed.
  const evidence = `GET ${e.path} → ${a.status}`;
  const advisories = [
    ...j.advisories.map((f) => ({ ...f, evidence })),
    ...j.choices.filter((c) => !c.followed).map((c) => ({ expected: `${c.expected}, as the profile says (${c.option}; the spec leaves it open)`, received: c.received ?? 'something else', profile: c.option, evidence })),
  ];
  return { ...check(id, title, e.requirements, 'passed', a.durationMs), notes, ...(advisories.length ? { advisories } : {}) };
}

/** The first OpenAPI document the target serves, under its base URL or its origin. */
export async function findOpenApi(target: GateTarget): Promise<{ url: string; doc: { paths?: Record<string, Record<string, unknown>>; servers?: Array<{ url?: string }> } } | undefined> {
  const origin = new URL(target.baseUrl).origin;
  const urls = [...new Set([...OPENAPI_PATHS.map((p) => `${target.baseUrl}${p}`), ...OPENAPI_PATHS.map((p) => `${origin}${p}`)])];
  for (const url of urls) {
    const a = await get(url, target.apiKey);
    if (a.status !== 200) continue;
    try {
      const doc = JSON.parse(a.body) as Record<string, unknown>;
      if ((typeof doc.openapi === 'string' || typeof doc.swagger === 'string') && doc.paths && typeof doc.paths === 'object') return { url, doc: doc as never };
    } catch {
      // Not JSON (an HTML page, YAML): not a document this step can read; try the next place.
    }
  }
  return undefined;
}

/**
 * The target's own document against the one lendcheck exports under the profile: one
 * finding per difference, each a check naming the operation and the field. Differences
 * where the target documents more than the export knows are notes on the summary check.
 */
export async function checkOpenApi(target: GateTarget, profile: Profile): Promise<CheckResult[]> {
  const id = 'target-openapi';
  const title = "the target's own OpenAPI document agrees with the document exported under the profile";
  const t0 = performance.now();
  const found = await findOpenApi(target);
  const ms = () => Math.round(performance.now() - t0);
  if (!found) return [check(id, title, [], 'skipped', ms(), `the target serves no OpenAPI JSON at ${OPENAPI_PATHS.join(', ')} (under the base URL or its origin)`)];
  // Paths in the document may carry the /v1 prefix, or leave it to servers[].url.
  const prefix = new URL(target.baseUrl).pathname.replace(/\/$/, '');
  const controls = new Set(endpoints(profile).filter((e) => e.access === 'sandbox').map((e) => e.id));
  const findings = diffOpenApi(buildOpenApi(profile), found.doc as Record<string, unknown>, { prefix, skip: (opId) => controls.has(opId) });
  const failed = findings.filter((f) => f.severity === 'failed');
  const notes = findings.filter((f) => f.severity === 'note').map(findingText);
  const checks: CheckResult[] = failed.map((f) => ({ ...check(`${id} ${f.operation} ${f.field}`, `${found.url}: ${f.operation} ${f.field} as the profile's document says`, [], 'failed', ms(), `expected ${f.expected} / received ${f.received}`), notes: [] }));
  checks.push({ ...check(id, title, [], failed.length ? 'failed' : 'passed', ms(), failed.length ? `expected no difference / received ${failed.length} (each a check above)` : undefined), notes });
  return checks;
}

/** The contract part: every check made against the target; skipped when none could be made. */
export async function runContract(o: { target: GateTarget; profile: Profile }): Promise<PartResult> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const checks: CheckResult[] = [];
  for (const e of safeGets(o.profile, !!o.target.apiKey)) checks.push(await checkAnswerShape(o.target, o.profile, e));
  checks.push(...(await checkOpenApi(o.target, o.profile)));
  const failed = checks.some((c) => c.status === 'failed');
  const passed = checks.some((c) => c.status === 'passed');
  return {
    part: 'contract',
    name: "the target's answers and OpenAPI against the contract",
    status: failed ? 'failed' : passed ? 'passed' : 'skipped',
    ...(!failed && !passed ? { skipReason: 'nothing could be checked: the target answered none of the safe GETs with a success body and serves no OpenAPI document' } : {}),
    target: o.target.label,
    profile: o.profile.name,
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    checks,
    figures: { 'answers checked': checks.filter((c) => c.id.startsWith('answer-shape') && c.status !== 'skipped').length },
  };
}
