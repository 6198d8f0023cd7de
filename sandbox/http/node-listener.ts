import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeAnswer, type Answer } from '../answer/answer.ts';
import type { Dispatch } from '../pipeline/dispatch.ts';
import { internalErrorAnswer } from '../answer/errors.ts';
import { NodeRequest } from '../pipeline/request.ts';
import { isPromise } from '../pipeline/stage.ts';

// The node:http door onto the sandbox's one dispatch: the socket's request goes in as it is
// (pipeline/request.ts NodeRequest) and the answer is written as it is (answer/answer.ts).
// No logic of its own: the caller, limits, the read cache and errors are all stages of
// dispatch. Written by hand rather than a fetch adapter (@hono/node-server) because a
// WHATWG URL, a Headers object and a Response per request were a fifth of a GET's CPU.

/** An unread body (a refused request) is drained so the connection can be reused. */
function drain(incoming: IncomingMessage): void {
  if (!incoming.readableEnded && !incoming.readableDidRead) incoming.resume();
}

export function nodeListener(dispatch: Dispatch): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
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
    let a: Answer | Promise<Answer>;
    try {
      a = dispatch(new NodeRequest(incoming));
    } catch (e) {
      fail(outgoing, e);
      return;
    }
    if (isPromise(a)) a.then((x) => send(x, incoming, outgoing), (e: unknown) => fail(outgoing, e));
    else send(a, incoming, outgoing);
  };
}
