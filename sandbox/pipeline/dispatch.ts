import { API_VERSION_PREFIX, type Profile } from '../../contract/index.ts';
import type { Answer } from '../answer/answer.ts';
import { refuseDeclaredBody } from './body-cap.ts';
import { ApiError, errorAnswer, internalErrorAnswer } from '../answer/errors.ts';
import type { SandboxRequest } from './request.ts';
import type { RouteHit, Router } from '../../contract/router.ts';
import { isPromise, type FrontStage, type Stage } from './stage.ts';

// The sandbox's one request pipeline (Hono's app.fetch model, without Hono): every door (the
// node:http listener, the fetch door under Sandbox.fetch, msw) calls this and nothing else.
// Under /v1 the front stages run first (the caller, found once and kept on the request; the
// read cache, which answers a repeated read before any route is matched); then match the
// route once, set the request's endpoint, run the plugins' stages around it (under /v1 only),
// refuse a declared body over the cap, run the route or answer its 404/405, wait for the
// commit of what it wrote, and turn whatever was thrown into the error answer: each of these
// here and nowhere else. HEAD is GET without the body.
// Everything stays synchronous until something has to wait (a body read, an async limiter,
// a commit), which is most of why the sandbox is fast.

export interface Route {
  /** The contract endpoint id a request names (a shared path names two: keyed or not);
   *  undefined for a route outside the contract (metrics, openapi.json, the console). */
  endpoint(keyed: boolean): string | undefined;
  /** Auth, parsing and the handler; throws ApiError for a refusal. */
  run(req: SandboxRequest, params: string[]): Answer | Promise<Answer>;
}

export interface DispatchOptions {
  router: Router<Route>;
  /** Stages before the route is matched (under /v1): the caller stage. */
  front?: FrontStage[];
  /**
   * Stages after the plugins' stages, just before the route runs (under /v1): the read cache.
   * There every plugin (the limiter first) sees a cached read as it sees any other: a cached
   * answer is counted, limited, measured and carries the limit headers (issue 49).
   */
  inner?: FrontStage[];
  /** The plugins' stages, around the matched route (under /v1); they may read req.endpoint. */
  stages: Stage[];
  profile: Profile;
  /** The commit that covers everything written so far; undefined when nothing is open. */
  pendingCommit(): Promise<void> | undefined;
  /** A fault of the sandbox itself (not a refusal), for the log. */
  onInternalError(e: unknown): void;
}

export type Dispatch = (req: SandboxRequest) => Answer | Promise<Answer>;

/** The API (stages, body cap) is /v1 and below; the console's pages and /metrics are not. */
const underApi = (path: string) => path.startsWith(API_VERSION_PREFIX) && (path.length === API_VERSION_PREFIX.length || path.charCodeAt(API_VERSION_PREFIX.length) === 47);

/**
 * underApi, read off the raw target when the prefix stands there plainly (then `/`, `?`, `#` or
 * the end: decoding cannot change it), else off the decoded path. A cached read thus never
 * decodes its path: the decoding was an eighth of a cached GET's CPU once the read cache became
 * a stage of dispatch (measured in-process, session 13 of BENCHMARKS.md).
 */
function apiRequest(req: SandboxRequest): boolean {
  const t = req.target;
  if (t.startsWith(API_VERSION_PREFIX)) {
    const c = t.charCodeAt(API_VERSION_PREFIX.length);
    if (c !== c || c === 47 || c === 63 || c === 35) return true; // NaN (the end), '/', '?', '#'
  }
  return underApi(req.path);
}

export function createDispatch(o: DispatchOptions): Dispatch {
  const { router, stages, profile } = o;
  const inners = o.inner ?? [];

  const failed = (e: unknown): Answer => {
    if (e instanceof ApiError) return errorAnswer(e);
    o.onInternalError(e);
    return internalErrorAnswer();
  };
  const committed = (a: Answer): Answer | Promise<Answer> => {
    const c = o.pendingCommit();
    return c ? c.then(() => a, failed) : a;
  };

  /** No route for the method: 405 with Allow when the path has others, else 404. */
  const unrouted = (req: SandboxRequest): never => {
    const allow = router.allowed(req.path);
    if (allow.length) {
      const e = profile.errors.methodNotAllowed;
      throw new ApiError(e.code, `method: ${req.method} is not allowed on ${req.path}; allowed: ${allow.join(', ')}`, e.status, undefined, { allow: allow.join(', ') });
    }
    const e = profile.errors.unknownRoute;
    throw new ApiError(e.code, `path: no route ${req.method} ${req.path}`, e.status);
  };

  type Hit = RouteHit<Route> | undefined;
  function core(req: SandboxRequest, hit: Hit, api: boolean): Answer | Promise<Answer> {
    let a: Answer | Promise<Answer>;
    try {
      // After the stages, so a 413 still carries their headers; before auth and any read.
      if (api) {
        refuseDeclaredBody(req, profile);
        for (let i = 0; i < inners.length; i++) {
          const c = inners[i]!(req);
          if (c !== undefined) return c;
        }
      }
      a = hit ? hit.value.run(req, hit.params) : unrouted(req);
    } catch (e) {
      return committed(failed(e));
    }
    return isPromise(a) ? a.then(committed, (e: unknown) => committed(failed(e))) : committed(a);
  }
  const api = (req: SandboxRequest, hit: Hit) => core(req, hit, true);

  // The stages composed once: per request only the `next` of each stage is a new closure
  // (an argument, so tsx's keepNames does not wrap it in a naming call each time).
  type Step = (req: SandboxRequest, hit: Hit) => Answer | Promise<Answer>;
  const chain = stages.reduceRight<Step>((inner, stage) => (req, hit) => stage(req, () => inner(req, hit)), api);

  const match = (req: SandboxRequest): Hit => {
    const hit = router.match(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (hit) req.endpoint = hit.value.endpoint(req.header('authorization') !== undefined);
    return hit;
  };
  const fronts = o.front ?? [];
  const front = (req: SandboxRequest): Answer | Promise<Answer> => {
    for (let i = 0; i < fronts.length; i++) {
      const a = fronts[i]!(req);
      if (a !== undefined) return a;
    }
    return chain(req, match(req));
  };

  // HEAD is answered as GET without the body (the status and headers GET would have).
  const headless = (a: Answer): Answer => ({ ...a, body: null });

  return (req) => {
    const head = req.method === 'HEAD';
    let a: Answer | Promise<Answer>;
    try {
      a = apiRequest(req) ? front(req) : core(req, match(req), false);
      if (isPromise(a)) a = a.catch(failed);
    } catch (e) {
      a = failed(e);
    }
    return head ? (isPromise(a) ? a.then(headless) : headless(a)) : a;
  };
}
