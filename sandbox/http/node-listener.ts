import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CachedAnswer } from './read-cache.ts';
import { writeAnswer, type Answer } from '../pipeline/answer.ts';
import type { Dispatch } from '../pipeline/dispatch.ts';
import { internalErrorAnswer } from '../pipeline/errors.ts';
import { NodeRequest } from '../pipeline/request.ts';
import { isPromise } from '../pipeline/stage.ts';

// The node:http listener in front of the sandbox's pipeline. Written by hand because
// @hono/node-server's listener, measured under a CPU profile, spent its share of a GET on
// work the sandbox never needs (a WHATWG URL parse of every request, a Headers object built
// from the socket's headers, three stream listeners per request, a Response per answer).
// Here the pipeline gets the socket's request as it is (pipeline/request.ts NodeRequest) and
// its answer is written as it is (pipeline/answer.ts); a repeated read may not reach the
// pipeline at all (the read cache).

/** A repeated read answered without the core (Sandbox.cachedRead); undefined: ask the core. */
type CachedRead = (target: string, authorization: string | undefined) => CachedAnswer | undefined;

/** An unread body (a refused request) is drained so the connection can be reused. */
function drain(incoming: IncomingMessage): void {
  if (!incoming.readableEnded && !incoming.readableDidRead) incoming.resume();
}

export function nodeListener(dispatch: Dispatch, cachedRead?: CachedRead): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  /** A fault in writing the answer itself: the pipeline's own 500, if nothing was sent yet. */
  const fail = (outgoing: ServerResponse, e: unknown) => {
    console.error(`sandbox: cannot answer: ${e instanceof Error ? e.stack : String(e)}`);
    if (outgoing.headersSent) outgoing.end();
    else writeAnswer(internalErrorAnswer(), outgoing);
  };
  const send = (a: Answer, incoming: IncomingMessage, outgoing: ServerResponse) => {
    try {
      writeAnswer(a, outgoing);
      drain(incoming);
    } catch (e) {
      fail(outgoing, e);
    }
  };
  return (incoming, outgoing) => {
    if (cachedRead && incoming.method === 'GET') {
      const a = cachedRead(incoming.url ?? '/', incoming.headers.authorization);
      if (a) {
        // The headers the core's answer gets (endpoints/route.ts: JSON_TYPE).
        outgoing.writeHead(a.status, { 'content-type': 'application/json', 'content-length': String(a.length) });
        outgoing.end(a.body);
        drain(incoming);
        return;
      }
    }
    let a: Answer | Promise<Answer>;
    try {
      a = dispatch(new NodeRequest(incoming, outgoing));
    } catch (e) {
      fail(outgoing, e);
      return;
    }
    if (isPromise(a)) a.then((x) => send(x, incoming, outgoing), (e: unknown) => fail(outgoing, e));
    else send(a, incoming, outgoing);
  };
}
