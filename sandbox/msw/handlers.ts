import { http, type RequestHandler } from 'msw';
import type { FetchCore } from './types.ts';

// The msw door onto the sandbox's fetch core: every request under the base URL, any method,
// goes to the core as it is and its Response comes back as it is. No logic of its own (the
// caller, limits, errors, 404/405 are all the core's dispatch).
//
// One handler with a predicate rather than the two path patterns `base` and `base/*`: msw
// compiles a string pattern again on every request it matches. The predicate matches what the
// patterns did: the URL without its query and fragment is the base or lies below it, compared
// without case (as path-to-regexp does).

/** msw request handlers for setupServer(...) / server.use(...), backed by `core`. */
export function lendcheckHandlers(core: FetchCore): RequestHandler[] {
  const base = core.baseUrl.replace(/\/+$/, '').toLowerCase();
  const under = ({ request }: { request: Request }) => {
    const url = request.url;
    const end = url.search(/[?#]/);
    const path = (end < 0 ? url : url.slice(0, end)).toLowerCase();
    return path === base || path.startsWith(`${base}/`);
  };
  return [withoutCallFrame(() => http.all(under, ({ request }) => core.fetch(request)))];
}

/** msw records, for its logs, the first frame outside msw of a stack it captures when a
 *  handler is built: here that frame is always this file, never the partner's test, and
 *  capturing it (a stack trace through source maps) was a tenth of a sandbox per test's
 *  set-up (bench/partner-ways.ts). Built with no stack, the handler has no call frame. The
 *  limit is restored before anything else can run: the build is synchronous. */
function withoutCallFrame<T>(build: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
