import { ERROR_STATUS, type ErrorCode, type Profile } from '../../contract/index.ts';
import type { Answer } from './answer.ts';

// Every error leaves the sandbox as the spec's error object (part 7), built here and
// nowhere else (errorAnswerOf). Handlers throw ApiError; the pipeline's one error handler
// (dispatch.ts) turns it into an answer, and anything else into a 500 internal_error that
// says nothing about internals.

// An ApiError is an answer, not a fault: nothing reads its stack, and capturing one was
// most of a 401's CPU (38 % of an unknown key's answer in the profile, limits off).

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    message: string,
    readonly status: number = ERROR_STATUS[code as ErrorCode] ?? 400,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

const ERROR_TYPE = 'application/json; charset=utf-8';

/**
 * The spec's error object as an answer. `headers` are taken as they come (names as the
 * caller spells them) and gain the content type: the limiter's 429, its commonest answer in
 * a tier run, is made this way without an Error.
 */
export function errorAnswerOf(status: number, code: string, message: string, details?: Record<string, unknown>, headers: Record<string, string> = {}): Answer {
  headers['content-type'] = ERROR_TYPE;
  // The bytes JSON.stringify({ error: { code, message, details } }) gives, without building the objects.
  const tail = details ? `,"details":${JSON.stringify(details)}}}` : '}}';
  return { status, headers, body: `${headOf(code)}${JSON.stringify(message)}${tail}` };
}

// The body's start for each code, made once: codes are few (the spec's and the profile's), and
// a 429 is the commonest answer of a tier run, where a stringify per answer showed in the profile.
const HEADS = new Map<string, string>();
function headOf(code: string): string {
  let h = HEADS.get(code);
  if (h === undefined) HEADS.set(code, (h = `{"error":{"code":${JSON.stringify(code)},"message":`));
  return h;
}

/** An ApiError as its answer; its extra headers (Allow on a 405) by lower-case name. */
export function errorAnswer(err: ApiError): Answer {
  const headers: Record<string, string> = { 'content-type': ERROR_TYPE };
  if (err.headers) for (const k in err.headers) headers[k.toLowerCase()] = err.headers[k]!;
  return errorAnswerOf(err.status, err.code, err.message, err.details, headers);
}

export const internalErrorAnswer = (): Answer => errorAnswerOf(500, 'internal_error', 'internal error');

/** The profile's 413 for a body over its maxBodyBytes (declared or counted while read). */
export function payloadTooLarge(profile: Profile): ApiError {
  const e = profile.errors.payloadTooLarge;
  return new ApiError(e.code, `body: larger than ${profile.limits.maxBodyBytes} bytes`, e.status);
}

export const invalid = (field: string, problem: string) => new ApiError('invalid_request', `${field}: ${problem}`, 400);
