import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Toxic } from '../../faults/index.ts';
import { noteOf, okAnswer, type FaultOutcome } from './receiver-fault.ts';

// The receiver's door for a toxic: the node request becomes a Fetch Request (its signal aborts
// when the sender hangs up), the toxic runs with the receiver's own 200 as `next`, and its answer
// goes back onto the socket: written, trickled, or the connection dropped as the toxic's note says.

export interface DoorOptions {
  /** The request body, already read (the receiver verified its signature). */
  body: Buffer;
  /**
   * Called just before an answer's status line is written: the receiver commits the outcome
   * first, as it does for answers known in advance, so a crash between the answer leaving and
   * the toxic's end cannot lose a status the sender saw.
   */
  answering?(outcome: FaultOutcome): Promise<void>;
}

/** Runs one toxic on one exchange and says what the sender was given. */
export async function serveToxic(toxic: Toxic, req: IncomingMessage, res: ServerResponse, opts: DoorOptions): Promise<FaultOutcome> {
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) gone.abort();
  };
  res.once('close', onClose);
  try {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const request = new Request(new URL(req.url ?? '/', 'http://receiver'), { method: req.method, headers, body: new Uint8Array(opts.body), signal: gone.signal });
    const answer = await toxic(request, async () => okAnswer());
    const note = noteOf(answer);
    if (note?.drop || answer.type === 'error') {
      const kind = note?.drop ?? 'destroy';
      if (kind === 'reset') {
        const socket = req.socket;
        if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
        else socket.destroy();
      } else if (kind === 'close') req.socket.end();
      else if (kind === 'destroy') res.destroy();
      return { status: null, response: note?.response ?? 'dropped' };
    }
    const outcome = { status: answer.status, response: note?.response ?? String(answer.status) };
    await opts.answering?.(outcome);
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (note?.final) {
      // A body sent over time: the headers leave now, each chunk as the toxic gives it.
      res.flushHeaders();
      if (answer.body) for await (const chunk of answer.body) if (!res.destroyed) res.write(chunk);
      if (!res.destroyed) res.end();
      return { status: answer.status, response: await note.final };
    }
    res.end(Buffer.from(await answer.arrayBuffer()));
    return outcome;
  } finally {
    res.off('close', onClose);
  }
}
