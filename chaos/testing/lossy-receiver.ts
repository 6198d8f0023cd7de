import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultProfile, SIGNATURE_HEADER } from '../../contract/index.ts';
import { canonicalJson, sha256 } from '../canonical.ts';
import { verifyWebhook } from '../../signing/signature.ts';
import { AttemptStore, type NewAttempt } from '../store.ts';

// A deliberately broken receiver for the restart drill's self-test: it answers 200 at once and
// commits its rows in a batch once a second (the "ack first, write later" bug). A crash loses
// every acknowledged delivery of the last batch, which the drill must report as lost. Same
// store, same numbering as the real receiver, so only the ordering of ack and commit differs.

export interface LossyOptions {
  secret: string;
  db: string;
  port: number;
  timeScale: number;
  flushEveryMs?: number;
}

const readAll = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

export async function startLossyReceiver(o: LossyOptions) {
  const store = new AttemptStore(o.db);
  store.openSession({ timeScale: o.timeScale, scheme: defaultProfile.signature.scheme ?? 'none', plan: 'lossy (ack before commit)', startedMs: Date.now() });
  const seen = store.attemptCounts();
  let held: NewAttempt[] = [];
  const flush = () => {
    // Recording failures are printed: the lossy receiver loses on purpose only what it acked before committing.
    for (const a of held) store.record(a).catch((e: unknown) => console.error(`lossy receiver: record failed: ${String(e)}`));
    held = [];
  };
  const timer = setInterval(flush, o.flushEveryMs ?? 1000);
  const server = createServer((req, res) => {
    answer(req, res).catch((e: unknown) => res.destroy(e as Error));
  });
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const body = await readAll(req);
    const arrivalMs = Date.now();
    const env = JSON.parse(body.toString('utf8')) as { id: string; type: string; data: unknown };
    const sig = verifyWebhook(body, req.headers[SIGNATURE_HEADER] as string | undefined, o.secret, { scheme: defaultProfile.signature.scheme ?? undefined });
    const attempt = (seen.get(env.id) ?? 0) + 1;
    seen.set(env.id, attempt);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    held.push({
      eventId: env.id, eventType: env.type, attempt, arrivalMs, bodySha256: sha256(body), contentKey: sha256(canonicalJson({ type: env.type, data: env.data })),
      subject: null, bodyBytes: body.length, sigOk: sig.ok, sigReason: sig.ok ? null : sig.reason, fault: null, endedMs: Date.now(), response: '200', status: 200,
    });
  }
  await new Promise<void>((r) => server.listen(o.port, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      flush();
      store.closeSession(Date.now());
      store.close();
    },
  };
}
