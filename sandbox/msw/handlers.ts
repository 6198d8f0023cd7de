import { http, type RequestHandler } from 'msw';
import type { FetchCore } from './types.ts';

// The msw door onto the sandbox's fetch core: every request under the base URL, any method,
// goes to the core as it is and its Response comes back as it is. No logic of its own (the
// caller, limits, errors, 404/405 are all the core's dispatch).

/** msw request handlers for setupServer(...) / server.use(...), backed by `core`. */
export function lendcheckHandlers(core: FetchCore): RequestHandler[] {
  const base = core.baseUrl.replace(/\/+$/, '');
  const answer = ({ request }: { request: Request }) => core.fetch(request);
  return [http.all(base, answer), http.all(`${base}/*`, answer)];
}
