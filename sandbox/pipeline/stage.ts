import type { MiddlewareHandler } from 'hono';
import { fromResponse, toResponse, type Answer } from './answer.ts';
import { FetchLaneRequest, type LaneRequest } from './request.ts';

// A plugin's part of every /v1 request (rate limits, metrics, test delays), written once
// against the lane's plain request and answer, and run two ways: inline by the lane for
// the contract's routes, and as Hono middleware (stageMiddleware) for the routes Hono
// serves (controls, webhooks, unknown paths). Onion-shaped like middleware, but `next` may
// answer synchronously, so a stage adds no promise to a request that needs none.

export type Next = () => Answer | Promise<Answer>;

/** The request a stage sees; `endpoint` is the contract id, when the lane routed it. */
export type StageRequest = LaneRequest & { endpoint?: string };

export type Stage = (req: StageRequest, next: Next) => Answer | Promise<Answer>;

export const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown } | null)?.then === 'function';

/** Runs `f` on the answer, now or when it comes. */
export function andThen(a: Answer | Promise<Answer>, f: (a: Answer) => Answer): Answer | Promise<Answer> {
  return isPromise(a) ? a.then(f) : f(a);
}

/** A stage as Hono middleware: Hono's answer is read back into an Answer for it, and its
 *  answer becomes the response (slower, but only routes outside the lane take this way). */
export function stageMiddleware(stage: Stage): MiddlewareHandler {
  return async (c, next) => {
    const req = new FetchLaneRequest(c.req.raw, c.env);
    const a = await stage(req, async () => {
      await next();
      return fromResponse(c.res);
    });
    c.res = toResponse(a);
  };
}
