import type { Answer } from '../answer/answer.ts';
import type { SandboxRequest } from './request.ts';

// A plugin's part of every /v1 request (rate limits, metrics, test delays), written against
// the pipeline's plain request and answer and composed once around the routes
// (dispatch.ts). Onion-shaped like middleware, but `next` may answer synchronously, so a
// stage adds no promise to a request that needs none.

export type Next = () => Answer | Promise<Answer>;

export type Stage = (req: SandboxRequest, next: Next) => Answer | Promise<Answer>;

export const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown } | null)?.then === 'function';

/** Runs `f` on the answer, now or when it comes. */
export function andThen(a: Answer | Promise<Answer>, f: (a: Answer) => Answer): Answer | Promise<Answer> {
  return isPromise(a) ? a.then(f) : f(a);
}
