// msw 2 (its @mswjs/interceptors 0.41) hands every "response:mocked" listener a clone of each
// mocked fetch response, and a clone shares its body with the original through a tee: while
// the clone stays unread, `res.body.cancel()` on the response the client got never settles
// (mswjs/interceptors#712 and #799, fixed upstream by #833, not in msw 2.15). A client that
// cancels an error body before retrying (as the example's does on a 429) then hangs.
// Reading the clones of this sandbox's answers lets those cancels settle; answers are small
// JSON, and other hosts' responses (which may stream) are left alone.
import type { MswEvents } from './types.ts';

/** Reads msw's clones of the responses under `baseUrl`; returns the undo. */
export function readMockedClones(server: MswEvents, baseUrl: string): () => void {
  const base = baseUrl.replace(/\/+$/, '');
  const listener = ({ request, response }: { request: Request; response: Response }) => {
    if (request.url === base || request.url.startsWith(`${base}/`) || request.url.startsWith(`${base}?`)) void response.arrayBuffer().catch(() => {});
  };
  server.events.on('response:mocked', listener);
  return () => void server.events.removeListener('response:mocked', listener);
}
