// MISTAKE: hand-rolled verification that compares the signature with `==`. It accepts and
// refuses exactly the right deliveries, but the comparison stops at the first differing
// character, leaking timing. That cannot be measured over a network in a test run, so the
// certifier finds it by reading this file (`--source`), check source.constant-time-compare.
import { createHmac } from 'node:crypto';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

export const start = (o: ExampleOptions) =>
  serve(({ headers, rawBody }) => {
    const header = String(headers['x-service-signature'] ?? '');
    const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')));
    const expected = createHmac('sha256', o.secret).update(`${parts.t}.${rawBody}`).digest('hex');
    const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) <= 300;
    if (!(parts.v1 == expected) || !fresh) return { status: 401 };
    return { status: 200, body: { received: true } };
  }, o.port);
await runIfMain(import.meta.url, start);
