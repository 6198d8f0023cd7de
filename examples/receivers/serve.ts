import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { SignatureScheme } from '../../signing/signature.ts';

// The plumbing every example shares: a node:http server that hands the handler the RAW body
// bytes (as a string) — verifying a signature needs exactly the bytes that were signed.

export interface Incoming {
  headers: IncomingHttpHeaders;
  rawBody: string;
}
export interface Answer {
  status: number;
  body?: unknown;
}
export type Handler = (req: Incoming) => Answer | Promise<Answer>;

export interface ExampleOptions {
  secret: string;
  port?: number;
  /** The signature scheme of the sender's profile (default t-v1-hmac-sha256). */
  scheme?: SignatureScheme;
}
export interface Running {
  url: string;
  close(): Promise<void>;
}

export async function serve(handler: Handler, port = 0): Promise<Running> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      Promise.resolve()
        .then(() => handler({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') }))
        .then(
          (a) => res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.body ?? {})),
          (e: unknown) => {
            if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(e) }));
          },
        );
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, // the partner's own receiving path (any path reaches it), not the API's
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** `node --import tsx examples/receivers/<file>.ts` runs an example on PORT with WEBHOOK_SECRET. */
export async function runIfMain(moduleUrl: string, start: (o: ExampleOptions) => Promise<Running>): Promise<void> {
  if (!process.argv[1] || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the subscription secret (whsec_…)');
  const r = await start({ secret, port: Number(process.env.PORT ?? 8787) });
  console.log(`listening on ${r.url}`);
}
