import type { IncomingMessage } from 'node:http';
import { getPath } from 'hono/utils/url';
import { payloadTooLarge } from './errors.ts';
import type { Profile } from '../../contract/index.ts';

// The request as the lane and the plugins' stages read it: method, the path as Hono routes
// it (hono/utils/url's getPath, so both paths decode percent-escapes alike), headers by
// lower-case name and the body read once under the size cap. Two sources: a node
// IncomingMessage (the listener) and a fetch Request (tests, in-process callers).

export interface LaneRequest {
  readonly method: string;
  /** The URL as a string (its host is not the client's: nothing may depend on it). */
  readonly url: string;
  /** Decoded path, as Hono matches routes. */
  readonly path: string;
  /** What Hono would hand a handler as `c.env` (the socket under the listener). */
  readonly env: unknown;
  header(name: string): string | undefined;
  /** The body as text, at most the profile's maxBodyBytes (413 beyond). */
  text(profile: Profile): Promise<string>;
  /** The socket's request, when there is one. */
  readonly incoming?: IncomingMessage;
}

type Incoming = IncomingMessage & { rawBody?: Buffer };

export class NodeLaneRequest implements LaneRequest {
  readonly method: string;
  readonly url: string;
  private p: string | undefined;
  readonly env: { incoming: IncomingMessage; outgoing: unknown };

  constructor(readonly incoming: Incoming, outgoing: unknown) {
    this.method = incoming.method ?? 'GET';
    // A fixed host: a client's Host header could otherwise change how the path is split.
    this.url = `http://sandbox${incoming.url ?? '/'}`;
    this.env = { incoming, outgoing };
  }

  get path(): string {
    return (this.p ??= getPath({ url: this.url } as Request));
  }

  header(name: string): string | undefined {
    const v = this.incoming.headers[name];
    return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : v;
  }

  text(profile: Profile): Promise<string> {
    const inc = this.incoming;
    if (inc.rawBody instanceof Buffer) return Promise.resolve(inc.rawBody.toString('utf8'));
    return new Promise((resolve, reject) => new CappedBody(inc, profile, resolve, reject).start());
  }
}

/**
 * One body read off the socket, at most the profile's maxBodyBytes. Listeners rather than
 * `for await` (the async iterator was 3 % of an order's CPU), and bound methods rather than
 * closures named by `const`: tsx, which runs the sandbox from a checkout, keeps a named
 * closure's name with a defineProperty call each time one is created (1-2 % of an order).
 */
class CappedBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly inc: Incoming,
    private readonly profile: Profile,
    private readonly resolve: (text: string) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    this.onData = this.onData.bind(this);
    this.onEnd = this.onEnd.bind(this);
  }

  start(): void {
    this.inc.on('data', this.onData).once('end', this.onEnd).once('error', this.reject);
  }

  private onData(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.profile.limits.maxBodyBytes) {
      this.inc.off('data', this.onData).off('end', this.onEnd).off('error', this.reject);
      // The rest is read and dropped, so the connection stays usable for the 413.
      this.inc.resume();
      this.reject(payloadTooLarge(this.profile));
    } else this.chunks.push(chunk);
  }

  private onEnd(): void {
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    // Kept where node-listener's full Request looks first, if anything later asks for the body.
    this.inc.rawBody = buf;
    this.resolve(buf.toString('utf8'));
  }
}

export class FetchLaneRequest implements LaneRequest {
  readonly method: string;
  readonly url: string;
  private p: string | undefined;
  private body: Promise<string> | undefined;
  readonly incoming?: IncomingMessage;

  constructor(
    private readonly req: Request,
    readonly env: unknown,
  ) {
    this.method = req.method;
    this.url = req.url;
    this.incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  }

  get path(): string {
    return (this.p ??= getPath(this.req));
  }

  header(name: string): string | undefined {
    return this.req.headers.get(name) ?? undefined;
  }

  text(profile: Profile): Promise<string> {
    return (this.body ??= this.read(profile));
  }

  private async read(profile: Profile): Promise<string> {
    if (!this.req.body) return '';
    const max = profile.limits.maxBodyBytes;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of this.req.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > max) throw payloadTooLarge(profile);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
