import { http, type RequestHandler } from 'msw';

// The msw door onto the sandbox's fetch core: every request under the base URL, any method,
// goes to the core as it is and its Response comes back as it is. No logic of its own (the
// caller, limits, errors, 404/405 are all the core's dispatch).

export interface FetchCore {
  /** The sandbox's fetch (Sandbox.fetch). */
  fetch(req: Request): Promise<Response>;
  /** The base URL to intercept, ending in /v1. */
  baseUrl: string;
}

/** msw request handlers for setupServer(...) / server.use(...), backed by `core`. */
export function lendcheckHandlers(core: FetchCore): RequestHandler[] {
  const base = core.baseUrl.replace(/\/+$/, '');
  const answer = ({ request }: { request: Request }) => core.fetch(request);
  return [http.all(base, answer), http.all(`${base}/*`, answer)];
}
