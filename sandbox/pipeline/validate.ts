import type { z } from 'zod';
import { unknownField, type Profile } from '../../contract/index.ts';
import { ApiError, invalid } from '../answer/errors.ts';

// Request parsing that turns every problem into a 4xx whose message names the field.

/** The first zod issue as "field: problem"; a missing field reads "is required". */
export function issueMessage(err: z.ZodError, root: string): ApiError {
  const i = err.issues[0];
  const field = i.path.length ? i.path.map(String).join('.') : root;
  const missing = i.code === 'invalid_type' && /received undefined/.test(i.message);
  return invalid(field, missing ? 'is required' : i.message);
}

/**
 * Profile requests.unknownFields: under `reject` a body field its schema does not list is refused,
 * naming it (nested fields by dotted path); under `ignore` the schema's parse strips it. Every
 * body reader calls this before its parse, the core's routes and the plugins' alike.
 */
export function refuseUnknownFields(profile: Profile, schema: z.ZodType, body: unknown): void {
  if (profile.requests.unknownFields !== 'reject') return;
  const extra = unknownField(schema, body);
  if (extra) throw invalid(extra, 'is not a field of this request');
}

export function parseWith<T>(schema: z.ZodType<T>, input: unknown, root: string): T {
  const r = schema.safeParse(input);
  if (!r.success) throw issueMessage(r.error, root);
  return r.data;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Where a body comes from: a pipeline request (pipeline/request.ts). */
export interface BodySource {
  header(name: string): string | undefined;
  text(profile: Profile): Promise<string>;
}

/** Reads a JSON body. `required`: an empty body is an error; otherwise it reads as undefined. */
export async function readJsonBody(src: BodySource, profile: Profile, required: boolean): Promise<unknown> {
  const text = await src.text(profile);
  if (text.trim() === '') {
    if (required) {
      const ct = src.header('content-type');
      if (!ct || !JSON_TYPE.test(ct)) throw mediaType(profile);
      throw invalid('body', 'is required: a JSON object');
    }
    return undefined;
  }
  const ct = src.header('content-type');
  if (!ct || !JSON_TYPE.test(ct)) throw mediaType(profile);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid('body', 'is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('body', 'must be a JSON object');
  return body;
}

function mediaType(profile: Profile): ApiError {
  const e = profile.errors.unsupportedMediaType;
  return new ApiError(e.code, 'Content-Type: must be application/json', e.status);
}
