import type { IncomingMessage } from 'node:http';
import type { Profile } from '../../contract/index.ts';
import { BodyCap } from './body-cap.ts';
import type { ApiError } from '../answer/errors.ts';
import { pathOf, queryOf, targetOf } from './url.ts';

// The request as the pipeline, its stages and its routes read it: method, the decoded path,
// headers by lower-case name and the body read once under the size cap (body-cap.ts). Two
// shapes behind one interface: a node IncomingMessage (the node:http door) and a fetch
// Request (the fetch door: msw, the mutants' proxy, tests, the console's own reads). The
// doors give nothing else; what the stages find (the caller) is kept on the request.
// Paths and query strings are decoded by the platform (url.ts).

/** The presented key's kind by its prefix, never the key: none (no header), test, live, other. */
export type KeyKind = 'none' | 'test' | 'live' | 'other';

/** The caller a valid key names (kept on the request by the caller stage). */
export interface KeyInfo {
  /** Stable, non-secret id of the key (never the key itself). */
  keyId: string;
  partnerId: string;
  tier: string;
}

/** What a door may say about a request beside the request itself. */
export interface RequestEnv {
  /** The client's address (the limiter's public bucket); the node door reads it off the socket. */
  clientAddress?: string;
  /** A request the sandbox makes to itself (plugin.ts INTERNAL_REQUEST_ENV). */
  internal?: boolean;
}

export interface SandboxRequest {
  readonly method: string;
  /** The URL as a string (its host is not the client's: nothing may depend on it). */
  readonly url: string;
  /** The raw target: path and query string as sent (the read cache's key). */
  readonly target: string;
  /** Decoded path, as routes are matched. */
  readonly path: string;
  readonly env: RequestEnv | undefined;
  /** The client's address, when a socket or the door says (else undefined). */
  readonly clientAddress: string | undefined;
  /** The contract endpoint id, set by the router once it has matched (metrics and limits read it). */
  endpoint?: string;
  /** The caller, found once by the caller stage (auth/caller.ts): the key's partner and tier,
   *  or why the Authorization header is refused (undefined with partner: no refusal). */
  partner?: KeyInfo;
  authRefusal?: ApiError;
  /** The presented key's kind, read by the caller stage with the rest (the partner report records it). */
  keyKind?: KeyKind;
  header(name: string): string | undefined;
  /** The query string's parameters (the first value of a repeated one). */
  query(): Record<string, string>;
  /** The body as text, at most the profile's maxBodyBytes (413 beyond). */
  text(profile: Profile): Promise<string>;
}

type Incoming = IncomingMessage & { rawBody?: Buffer };

export class NodeRequest implements SandboxRequest {
  readonly method: string;
  readonly target: string;
  private p: string | undefined;
  readonly env: RequestEnv | undefined = undefined;
  endpoint?: string;
  partner?: KeyInfo;
  authRefusal?: ApiError;
  keyKind?: KeyKind;

  constructor(private readonly incoming: Incoming) {
    this.method = incoming.method ?? 'GET';
    this.target = incoming.url ?? '/';
  }

  /** A fixed host: a client's Host header could otherwise change how the path is split. */
  get url(): string {
    return `http://sandbox${this.target}`;
  }

  get path(): string {
    return (this.p ??= pathOf(this.target));
  }

  get clientAddress(): string | undefined {
    return this.incoming.socket?.remoteAddress;
  }

  header(name: string): string | undefined {
    const v = this.incoming.headers[name];
    return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : v;
  }

  query(): Record<string, string> {
    return queryOf(this.target);
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
  private t: string | undefined;
  private body: Promise<string> | undefined;
  endpoint?: string;
  partner?: KeyInfo;
  authRefusal?: ApiError;
  keyKind?: KeyKind;

  constructor(
    private readonly req: Request,
    readonly env: RequestEnv | undefined,
  ) {
    this.method = req.method;
    this.url = req.url;
  }

  get target(): string {
    return (this.t ??= targetOf(this.url));
  }

  get path(): string {
    return (this.p ??= pathOf(this.url));
  }

  get clientAddress(): string | undefined {
    return this.env?.clientAddress;
  }

  header(name: string): string | undefined {
    return this.req.headers.get(name) ?? undefined;
  }

  query(): Record<string, string> {
    return queryOf(this.url);
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
