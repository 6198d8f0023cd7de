import type { IncomingMessage } from 'node:http';
import { getPath, getQueryParam } from 'hono/utils/url';
import type { Profile } from '../../contract/index.ts';
import { BodyCap } from './body-cap.ts';

// The request as the pipeline, its stages and its routes read it: method, the decoded path,
// headers by lower-case name and the body read once under the size cap (body-cap.ts). Two
// sources: a node IncomingMessage (the listener) and a fetch Request (tests, in-process
// callers, the console's own reads).
// Paths and query strings are read with hono/utils/url (getPath, getQueryParam), the code
// that routed every request while Hono served part of the sandbox: kept so that a path with
// percent-escapes or an odd query reads exactly as it did.

export interface SandboxRequest {
  readonly method: string;
  /** The URL as a string (its host is not the client's: nothing may depend on it). */
  readonly url: string;
  /** Decoded path, as routes are matched. */
  readonly path: string;
  /** The socket under the listener ({ incoming, outgoing }); what in-process callers pass, else. */
  readonly env: unknown;
  /** The contract endpoint id, set by the router once it has matched (metrics and limits read it). */
  endpoint?: string;
  header(name: string): string | undefined;
  /** The query string's parameters (the last value of a repeated one). */
  query(): Record<string, string>;
  /** The body as text, at most the profile's maxBodyBytes (413 beyond). */
  text(profile: Profile): Promise<string>;
  /** The socket's request, when there is one. */
  readonly incoming?: IncomingMessage;
}

type Incoming = IncomingMessage & { rawBody?: Buffer };

export class NodeRequest implements SandboxRequest {
  readonly method: string;
  readonly url: string;
  private p: string | undefined;
  readonly env: { incoming: IncomingMessage; outgoing: unknown };
  endpoint?: string;

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

  query(): Record<string, string> {
    return getQueryParam(this.url) as Record<string, string>;
  }

  text(profile: Profile): Promise<string> {
    const inc = this.incoming;
    if (inc.rawBody instanceof Buffer) return Promise.resolve(inc.rawBody.toString('utf8'));
    return new Promise((resolve, reject) => new CappedBody(inc, profile, resolve, reject).start());
  }
}

/**
 * One body read off the socket under the cap. Listeners rather than `for await` (the async
 * iterator was 3 % of an order's CPU), and bound methods rather than closures named by
 * `const`: tsx, which runs the sandbox from a checkout, keeps a named closure's name with a
 * defineProperty call each time one is created (1-2 % of an order).
 */
class CappedBody {
  private readonly chunks: Buffer[] = [];
  private readonly cap: BodyCap;

  constructor(
    private readonly inc: Incoming,
    profile: Profile,
    private readonly resolve: (text: string) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    this.cap = new BodyCap(profile);
    this.onData = this.onData.bind(this);
    this.onEnd = this.onEnd.bind(this);
  }

  start(): void {
    this.inc.on('data', this.onData).once('end', this.onEnd).once('error', this.reject);
  }

  private onData(chunk: Buffer): void {
    const tooLarge = this.cap.add(chunk.length);
    if (tooLarge) {
      this.inc.off('data', this.onData).off('end', this.onEnd).off('error', this.reject);
      // The rest is read and dropped, so the connection stays usable for the 413.
      this.inc.resume();
      this.reject(tooLarge);
    } else this.chunks.push(chunk);
  }

  private onEnd(): void {
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    // Kept for a second read of the same body (text() looks here first).
    this.inc.rawBody = buf;
    this.resolve(buf.toString('utf8'));
  }
}

export class FetchRequest implements SandboxRequest {
  readonly method: string;
  readonly url: string;
  private p: string | undefined;
  private body: Promise<string> | undefined;
  readonly incoming?: IncomingMessage;
  endpoint?: string;

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

  query(): Record<string, string> {
    return getQueryParam(this.url) as Record<string, string>;
  }

  text(profile: Profile): Promise<string> {
    return (this.body ??= this.read(profile));
  }

  private async read(profile: Profile): Promise<string> {
    if (!this.req.body) return '';
    const cap = new BodyCap(profile);
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.req.body as unknown as AsyncIterable<Uint8Array>) {
      const tooLarge = cap.add(chunk.byteLength);
      if (tooLarge) throw tooLarge;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
