import type { Profile } from '../../contract/index.ts';
import { ApiError, payloadTooLarge } from './errors.ts';
import { errorAnswer, internalErrorAnswer, type Answer } from './answer.ts';
import type { LaneRequest } from './request.ts';
import type { Router } from './router.ts';
import { isPromise, type Stage, type StageRequest } from './stage.ts';

// The lane: the contract's own routes, served without Hono. A request the route table
// holds runs the plugins' stages in order, then the body-size check, then the route (auth,
// parsing, the resolver), then waits for the commit of what it wrote; everything stays
// synchronous until something has to wait (a body read, an async limiter, a commit).
// Requests the table does not hold come back undefined and go to Hono, which runs the same
// stages as middleware (lane/stage.ts), so both ways answer alike.

export interface LaneRoute {
  /** The contract endpoint id a request names (a shared path names two: keyed or not). */
  endpoint(keyed: boolean): string;
  /** Auth, parsing and the resolver; throws ApiError for a refusal. */
  run(req: LaneRequest, params: string[]): Answer | Promise<Answer>;
}

export interface LaneOptions {
  route: Router<LaneRoute>;
  stages: Stage[];
  profile: Profile;
  /** The commit that covers everything written so far; undefined when nothing is open. */
  pendingCommit(): Promise<void> | undefined;
  /** A fault of the sandbox itself (not a refusal), for the log. */
  onInternalError(e: unknown): void;
}

export type Lane = (req: StageRequest) => Answer | Promise<Answer> | undefined;

export function createLane(o: LaneOptions): Lane {
  const { route, stages, profile } = o;
  const maxBody = profile.limits.maxBodyBytes;

  const failed = (e: unknown): Answer => {
    if (e instanceof ApiError) return errorAnswer(e);
    o.onInternalError(e);
    return internalErrorAnswer();
  };
  const committed = (a: Answer): Answer | Promise<Answer> => {
    const c = o.pendingCommit();
    return c ? c.then(() => a, failed) : a;
  };

  function core(req: LaneRequest, r: LaneRoute, params: string[]): Answer | Promise<Answer> {
    let a: Answer | Promise<Answer>;
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        // A declared length is checked before auth, as Hono's bodyLimit would; a body of
        // unknown length is capped while it is read (LaneRequest.text).
        const declared = req.header('content-length');
        if (declared !== undefined && req.header('transfer-encoding') === undefined && Number(declared) > maxBody) throw payloadTooLarge(profile);
      }
      a = r.run(req, params);
    } catch (e) {
      return committed(failed(e));
    }
    return isPromise(a) ? a.then(committed, (e: unknown) => committed(failed(e))) : committed(a);
  }

  // HEAD is answered as GET without the body, as Hono does.
  const headless = (a: Answer): Answer => ({ ...a, body: null });

  // The stages composed once: per request only the `next` of each stage is a new closure
  // (an argument, so tsx's keepNames does not wrap it in a naming call each time).
  type Step = (req: StageRequest, r: LaneRoute, params: string[]) => Answer | Promise<Answer>;
  const chain = stages.reduceRight<Step>((inner, stage) => (req, r, params) => stage(req, () => inner(req, r, params)), core);

  return (req) => {
    const head = req.method === 'HEAD';
    const hit = route(head ? 'GET' : req.method, req.path);
    if (!hit) return undefined;
    req.endpoint = hit.value.endpoint(req.header('authorization') !== undefined);
    let a: Answer | Promise<Answer>;
    try {
      a = chain(req, hit.value, hit.params);
      if (isPromise(a)) a = a.catch(failed);
    } catch (e) {
      a = failed(e);
    }
    return head ? (isPromise(a) ? a.then(headless) : headless(a)) : a;
  };
}
