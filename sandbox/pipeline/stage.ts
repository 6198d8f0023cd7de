import type { Answer } from '../answer/answer.ts';
import type { SandboxRequest } from './request.ts';

// A plugin's part of every /v1 request (rate limits, metrics, test delays), written against
// the pipeline's plain request and answer and composed once around the routes
// (dispatch.ts). Onion-shaped like middleware, but `next` may answer synchronously, so a
// stage adds no promise to a request that needs none.

export type Next = () => Answer | Promise<Answer>;

export type Stage = (req: SandboxRequest, next: Next) => Answer | Promise<Answer>;

/**
 * A stage before the route is matched (the caller, the read cache): it answers now or lets
 * the request go on (undefined), and never waits. Not onion-shaped, so the front costs no
 * closure per request: a cached read is the hottest path of the sandbox.
 */
export type FrontStage = (req: SandboxRequest) => Answer | undefined;

export const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown } | null)?.then === 'function';

/** Runs `f` on the answer, now or when it comes. */
export function andThen(a: Answer | Promise<Answer>, f: (a: Answer) => Answer): Answer | Promise<Answer> {
  return isPromise(a) ? a.then(f) : f(a);
}
