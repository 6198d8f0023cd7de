import { z } from 'zod';
import { endpointKey, endpointSuccess, publicEnvelopeOf, shapes, type Endpoint } from '../../contract/index.ts';
import { expectJson, fail, issues, show, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';

// The common rule of every success answer: a 2xx (the exact one is a profile choice, the
// spec shows none), JSON, and a body matching the contract. Documented fields are held
// strictly; undocumented extras are notes. Shapes the spec does not show (responseSource
// 'profile') fail only under --strict.

function objectKeys(schema: z.ZodType): string[] | undefined {
  const s = schema as unknown as { shape?: Record<string, unknown> };
  return s.shape ? Object.keys(s.shape) : undefined;
}

export function extraFields(schema: z.ZodType, value: unknown): string[] {
  const keys = objectKeys(schema);
  if (!keys || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value).filter((k) => !keys.includes(k));
}

export function expectSuccess(ctx: CheckContext, e: Endpoint, r: Reply, title = `${e.method} ${e.path} answers as the contract says`): unknown {
  const want = endpointSuccess(ctx.profile, e);
  if (r.status < 200 || r.status > 299) fail(title, `a 2xx success (profile: ${want})`, `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
  ctx.profileChoice({ option: `successStatus["${e.id === 'rates.get' ? 'GET /rates' : endpointKey(e)}"]`, expected: String(want), followed: r.status === want, received: String(r.status) }, r.exchange);
  expectJson(r, title);

  let body: unknown = r.json;
  if (e.access === 'public') {
    const form = publicEnvelopeOf(ctx.profile, e);
    const obj = r.json as Record<string, unknown>;
    const seen = obj && typeof obj === 'object' && !Array.isArray(obj) && 'data' in obj ? 'data' : 'bare';
    ctx.profileChoice({ option: `publicEnvelope["${e.path}"]`, expected: form, followed: seen === form, received: seen }, r.exchange);
    if (seen === 'data') {
      // Which endpoints wrap is open; what the wrapper holds is not: {data, timestamp (UTC)}.
      const env = shapes.publicEnvelope(z.unknown()).safeParse(obj);
      if (!env.success) fail(title, 'the public wrapper {data, timestamp} with an ISO 8601 UTC timestamp', `${issues(env.error)} in ${show(obj)}`, r.exchange);
      body = obj.data;
    } else if (form === 'data' && e.responseSource !== 'spec') {
      ctx.note(`${e.path} answered without the {data, timestamp} wrapper the spec states for public responses`);
    }
  }

  const parsed = e.response.safeParse(body);
  if (!parsed.success) {
    if (e.responseSource === 'spec') fail(title, 'a body matching the spec schema', `${issues(parsed.error)} in ${show(body)}`, r.exchange);
    ctx.profileChoice({ option: `shapes.${e.id}`, expected: 'the lendcheck-v1 shape', followed: false, received: issues(parsed.error) }, r.exchange);
  } else if (e.responseSource === 'profile') {
    ctx.profileChoice({ option: `shapes.${e.id}`, expected: 'the lendcheck-v1 shape', followed: true }, r.exchange);
  }
  const extra = extraFields(e.response, body);
  if (extra.length) ctx.note(`${e.id}: undocumented fields ${extra.join(', ')} (allowed; noted)`);
  return body;
}
