import type { z } from 'zod';
import { citing, issuesLine, judgeSuccess, specShowsBody, type Endpoint } from '../../contract/index.ts';
import { fail, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';

// The common rule of every success answer, as contract/assertable.ts says it (the gate's
// contract step asks the same): a 2xx (the exact one is a profile choice, the spec shows none),
// JSON, and a body the spec and the profile allow. Documented fields are held strictly;
// undocumented extras are notes; what lendcheck only believes (a same-named field of another
// type in a body the spec does not show) is advice (ctx.advise), a failure only under --strict. Where the spec shows no body, the reference sandbox's own
// shape (contract/shapes.ts, lendcheck-v1) is only a profile observation: a failure under --strict.

function objectKeys(schema: z.ZodType): string[] | undefined {
  const s = schema as unknown as { shape?: Record<string, unknown> };
  return s.shape ? Object.keys(s.shape) : undefined;
}

export function extraFields(schema: z.ZodType, value: unknown): string[] {
  const keys = objectKeys(schema);
  if (!keys || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value).filter((k) => !keys.includes(k));
}

export function expectSuccess(ctx: CheckContext, e: Endpoint, r: Reply, title = `${e.method} ${e.path} answers as the spec and the profile say`): unknown {
  const j = judgeSuccess(ctx.profile, e, { status: r.status, json: r.json, text: r.text, contentType: r.headers['content-type'] ?? '' });
  for (const c of j.choices) ctx.profileChoice(c, r.exchange);
  const broken = j.failures[0];
  if (broken) fail(title, broken.expected, `${broken.received}${citing(broken)}`, r.exchange);
  for (const a of j.advisories) ctx.advise(a, r.exchange);
  for (const n of j.notes) ctx.note(n);
  const body = j.payload;
  if (specShowsBody(e)) {
    const extra = extraFields(e.response, body);
    if (extra.length) ctx.note(`${e.id}: undocumented fields ${extra.join(', ')} (allowed; noted)`);
  } else if (ctx.strict) {
    // --strict: the target is held to the reference sandbox's own choice of this body too.
    const own = e.response.safeParse(body);
    ctx.profileChoice({ option: `shapes.${e.id}`, expected: 'the lendcheck-v1 shape', followed: own.success, ...(own.success ? {} : { received: issuesLine(own.error) }) }, r.exchange);
  }
  return body;
}
