import { ERROR_STATUS, type ErrorCode, type Profile } from '../../contract/index.ts';

// Every error leaves the sandbox as the spec's error object (part 7). Handlers throw
// ApiError; the app's error handler turns it into a Response, and anything else into a
// 500 internal_error that says nothing about internals.

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

export function errorResponse(err: ApiError): Response {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.details) error.details = err.details;
  return new Response(JSON.stringify({ error }), {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...err.headers },
  });
}

/** The profile's 413 for a body over its maxBodyBytes (declared or counted while read). */
export function payloadTooLarge(profile: Profile): ApiError {
  const e = profile.errors.payloadTooLarge;
  return new ApiError(e.code, `body: larger than ${profile.limits.maxBodyBytes} bytes`, e.status);
}

export const invalid = (field: string, problem: string) => new ApiError('invalid_request', `${field}: ${problem}`, 400);

export function internalErrorResponse(): Response {
  return errorResponse(new ApiError('internal_error', 'internal error', 500));
}
