import type { CheckResult, Exchange, Reproduction } from '../../kernel/results.ts';
import { RECEIVER_VAR, SECRET_VAR } from '../../kernel/repro-vars.ts';
import { shortenSignature, SIGNATURE_NAMES } from '../redact.ts';

// A failed check's reproduction as shell text: each exchange a runnable curl command (method,
// URL, the headers that matter, the body), keys and secrets as environment variables, never
// their values. Hand-written: the curl line is a few rules of shell quoting, and a converter
// library (e.g. a HAR → curl one) would neither know lendcheck's variables nor keep every
// value single-quoted so that nothing but the variables expands.

export { RECEIVER_VAR, SECRET_VAR };

/** Headers the client adds on its own, or that curl sets itself: left out of the line. */
const NOISE = /^(accept|host|content-length|connection|user-agent|accept-encoding|transfer-encoding)$/i;
// A prefixed secret, or the value of a "secret" member the redactor masked whole.
const MASKED_SECRET = /whsec_\*\*\*|(?<="secret"\s*:\s*")\*\*\*(?=")/g;
const CLIPPED = /…\((\d+) chars\)$/;
/** What the suites record of a body (conformance/http.ts): a longer one is cut here the same way. */
const MAX_BODY = 4096;

type Part = { text: string } | { variable: string };

/** Splits a value into literal text and variables: the given vars' values, and masked secrets. */
function parts(value: string, vars: Record<string, string>): Part[] {
  let out: Part[] = [{ text: value }];
  const subs: Array<[RegExp | string, string]> = [...Object.entries(vars).filter(([, v]) => v).map(([k, v]) => [v, k] as [string, string]), [MASKED_SECRET, SECRET_VAR]];
  for (const [needle, variable] of subs) {
    out = out.flatMap((p): Part[] => {
      if (!('text' in p)) return [p];
      const pieces = p.text.split(needle);
      return pieces.flatMap((t, i): Part[] => (i ? [{ variable }, { text: t }] : [{ text: t }])).filter((x) => !('text' in x) || x.text !== '');
    });
  }
  return out;
}

/** One shell word: single-quoted literals, double-quoted variables, glued together. */
export function shellWord(value: string, vars: Record<string, string> = {}): string {
  const ps = parts(value, vars);
  if (!ps.length) return "''";
  return ps.map((p) => ('variable' in p ? `"$${p.variable}"` : `'${p.text.replace(/'/g, `'\\''`)}'`)).join('');
}

const sameRequest = (a: Exchange, b: Exchange) =>
  a.method === b.method && a.url === b.url && a.requestBody === b.requestBody && a.credential === b.credential && JSON.stringify(a.requestHeaders) === JSON.stringify(b.requestHeaders);

/** The curl command of one exchange (no response). */
export function curlOf(x: Exchange, vars: Record<string, string> = {}): string {
  const args = ["curl -sS -i -w '\\n'"];
  if (x.method !== 'GET' || x.requestBody !== undefined) args.push(`-X ${x.method}`);
  args.push(shellWord(x.url, vars));
  for (const [name, value] of Object.entries(x.requestHeaders)) {
    if (NOISE.test(name) && !(name.toLowerCase() === 'accept' && value !== 'application/json')) continue;
    if (/^authorization$/i.test(name) && x.credential) {
      // The scheme as sent (a check may send a real key under a wrong one), the key as its variable.
      const scheme = /^(\S+)\s/.exec(value)?.[1] ?? 'Bearer';
      args.push(`-H "Authorization: ${scheme.replace(/[^A-Za-z0-9_-]/g, '')} $${x.credential}"`);
      continue;
    }
    args.push(`-H ${shellWord(`${name}: ${SIGNATURE_NAMES.test(name) ? shortenSignature(value) : value}`, vars)}`);
  }
  if (x.credential && !Object.keys(x.requestHeaders).some((h) => /^authorization$/i.test(h))) args.push(`-H "Authorization: Bearer $${x.credential}"`);
  if (x.requestBody !== undefined) args.push(`--data-raw ${shellWord(x.requestBody.replace(CLIPPED, '').slice(0, MAX_BODY), vars)}`);
  return args.join(' ');
}

function answer(x: Exchange): string {
  if (x.error) return `no answer: ${x.error}`;
  const body = (x.responseBody ?? '').replace(/\s+/g, ' ').trim();
  return `${x.status ?? '—'}${body ? ` ${body.length > 200 ? `${body.slice(0, 200)}…` : body}` : ''}`;
}

/** Runs of the same request, so a burst of 120 identical GETs reads as one loop. */
export function groupRepeats(xs: Exchange[]): Array<{ x: Exchange; answers: Exchange[] }> {
  const out: Array<{ x: Exchange; answers: Exchange[] }> = [];
  for (const x of xs) {
    const last = out[out.length - 1];
    if (last && sameRequest(last.x, x)) last.answers.push(x);
    else out.push({ x, answers: [x] });
  }
  return out;
}

/** The shell lines of a reproduction: curl commands, each followed by what the target answered then. */
export function curlLines(r: Reproduction): string[] {
  const lines: string[] = [];
  const groups = groupRepeats(r.exchanges);
  groups.forEach((g, i) => {
    if (r.omitted && i === Math.min(5, groups.length)) lines.push(`# … ${r.omitted} more exchanges left out here (the first and the last are kept)`);
    const clipped = CLIPPED.exec(g.x.requestBody ?? '')?.[1] ?? ((g.x.requestBody?.length ?? 0) > MAX_BODY ? String(g.x.requestBody!.length) : undefined);
    if (clipped) lines.push(`# the recorded body was cut at ${MAX_BODY} of its ${clipped} characters: this line sends the cut body`);
    if (g.answers.length === 1) {
      lines.push(curlOf(g.x, r.vars));
      lines.push(`#   → ${answer(g.x)}`);
    } else {
      lines.push(`for i in $(seq ${g.answers.length}); do ${curlOf(g.x, r.vars)}; done`);
      const counts = new Map<string, number>();
      for (const a of g.answers) counts.set(String(a.status ?? 'no answer'), (counts.get(String(a.status ?? 'no answer')) ?? 0) + 1);
      lines.push(`#   → ${[...counts].map(([s, n]) => `${s} ×${n}`).join(', ')}; the last: ${answer(g.answers[g.answers.length - 1])}`);
    }
  });
  return lines;
}

/** Variables a reader sets before running the lines: the keys the exchanges carried, a secret, the vars. */
export function variablesOf(r: Reproduction): string[] {
  const names = new Set<string>();
  for (const x of r.exchanges) if (x.credential) names.add(x.credential);
  const all = JSON.stringify(r.exchanges);
  if (new RegExp(MASKED_SECRET.source).test(all.replace(/\\"/g, '"'))) names.add(SECRET_VAR);
  for (const [k, v] of Object.entries(r.vars)) if (v && all.includes(v)) names.add(k);
  return [...names];
}

const VAR_HELP: Record<string, string> = {
  LENDCHECK_API_KEY: 'the --api-key',
  LENDCHECK_API_KEY_2: "the second partner's key (--api-key-2)",
  LENDCHECK_BURST_KEY: 'the --burst-key',
  [SECRET_VAR]: 'a webhook signing secret of yours (whsec_…)',
  [RECEIVER_VAR]: 'a URL where you receive webhooks',
};

/**
 * A failed check's reproduction in its three parts: `head`, what to set (one line, when there
 * are exchanges); `steps`, the curl lines in the order sent, the failing request last (a
 * check's exchanges end at its failure); `rest`, the seed and shrunk input, the deliveries and
 * the timeline. The console shows the end of `steps` when it cannot show them all.
 */
export function reproductionSections(c: Pick<CheckResult, 'reproduction' | 'exchange'>): { head: string[]; steps: string[]; rest: string[] } {
  const r = c.reproduction ?? (c.exchange ? { exchanges: [c.exchange], omitted: 0, vars: {}, deliveries: [] } : undefined);
  if (!r) return { head: [], steps: [], rest: [] };
  const head: string[] = [];
  const vars = variablesOf(r);
  if (r.exchanges.length) head.push(`# reproduce${vars.length ? `; set ${vars.map((v) => `$${v} (${VAR_HELP[v] ?? 'see the record'})`).join(', ')}` : ''}:`);
  const steps = r.exchanges.length ? curlLines(r) : [];
  const out: string[] = [];
  if (r.seed !== undefined) out.push(`# seed: ${r.seed} (lendcheck conformance --seed ${r.seed})`);
  if (r.input !== undefined) out.push(`# smallest failing input (shrunk): ${r.input}`);
  for (const d of r.deliveries) {
    out.push(`# delivery received at +${d.atMs} ms: ${d.method}${d.status !== undefined ? ` (answered ${d.status})` : ''}`);
    // The signature is replayable: its first 8 hex digits only, as in every report.
    for (const [k, v] of Object.entries(d.headers)) if (!NOISE.test(k)) out.push(`#   ${k}: ${SIGNATURE_NAMES.test(k) ? shortenSignature(v) : v}`);
    if (d.body !== undefined) out.push(`#   ${d.body.replace(/\s+/g, ' ')}`);
  }
  if (r.timeline) {
    out.push('# timeline:');
    for (const l of r.timeline.split('\n')) out.push(`#   ${l}`);
  }
  return { head, steps, rest: out };
}

/**
 * The whole reproduction of a failed check as plain text lines (no colour): what to set, the
 * curl lines, the seed and shrunk input, the deliveries and the timeline.
 */
export function reproductionText(c: Pick<CheckResult, 'reproduction' | 'exchange'>): string[] {
  const { head, steps, rest } = reproductionSections(c);
  return [...head, ...steps, ...rest];
}
