import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BIN, runBin } from '../testing/run-bin.ts';

// `lendcheck listen --forward-to` against the embedded sandbox, as a partner runs it: its own
// process, a receiver of ours that checks each forwarded delivery with the official library
// of the scheme (standardwebhooks; stripe for the t=…,v1=… form), `lendcheck trigger` from
// another process, and SIGTERM removing the subscription.

interface Got {
  body: string;
  headers: IncomingHttpHeaders;
  verified: { id: string; type: string } | undefined;
  error?: string;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A partner receiver: verifies with `verify`, answers 401 when it throws, else `status()`. */
async function partnerReceiver(verify: (body: string, h: IncomingHttpHeaders) => { id: string; type: string }, status: () => number = () => 200) {
  const got: Got[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        got.push({ body, headers: req.headers, verified: verify(body, req.headers) });
        res.writeHead(status()).end('ok');
      } catch (e) {
        got.push({ body, headers: req.headers, verified: undefined, error: (e as Error).message });
        res.writeHead(401).end('bad signature');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, got };
}

/** Starts `lendcheck listen` and resolves once it prints its listening line. */
async function listen(args: string[]): Promise<{ child: ChildProcess; out: () => string; base: string }> {
  const child = spawn(process.execPath, [BIN, 'listen', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  cleanups.push(() => (child.exitCode === null ? child.kill('SIGKILL') : undefined));
  await vi.waitFor(() => expect(out).toMatch(/^listening at /m), { timeout: 30_000, interval: 100 });
  const base = /reference sandbox at (\S+)/.exec(out)![1];
  return { child, out: () => out, base };
}

const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

describe('lendcheck listen --forward-to, against the embedded sandbox', () => {
  it('standard-webhooks: a triggered event reaches the receiver, verified by standardwebhooks; the secret is in a mode-600 file, never printed', { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-listen-'));
    const profile = join(dir, 'profile.json');
    writeFileSync(profile, JSON.stringify({ name: 'std-webhooks', signature: { scheme: 'standard-webhooks' } }));
    const secretFile = join(dir, 'secret');
    let secret = '';
    const rx = await partnerReceiver((body, h) => new Webhook(secret).verify(body, h as Record<string, string>) as { id: string; type: string });
    const l = await listen(['--forward-to', rx.url, '--profile', profile, '--sandbox-port', '0', '--secret-file', secretFile]);
    secret = readFileSync(secretFile, 'utf8').trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(l.out()).not.toContain(secret.slice(6));
    expect(l.out()).toMatch(/signature standard-webhooks/);

    const t = await runBin(['trigger', 'position.matched', '--base-url', l.base]);
    expect(t.status, t.stderr).toBe(0);
    const eventId = /triggered position\.matched (\S+)/.exec(t.stdout)![1];
    await vi.waitFor(() => expect(rx.got).toHaveLength(1), { timeout: 15_000, interval: 50 });
    expect(rx.got[0].error).toBeUndefined();
    expect(rx.got[0].verified).toMatchObject({ id: eventId, type: 'position.matched' });
    // The original headers went on: the sandbox's user agent and the three webhook-* headers.
    expect(rx.got[0].headers['user-agent']).toMatch(/^lendcheck-sandbox-webhooks/);
    expect(rx.got[0].headers['webhook-id']).toBe(eventId);
    // One line per event: type, id, the receiver's status and latency.
    await vi.waitFor(() => expect(l.out()).toMatch(new RegExp(`position\\.matched\\s+${eventId}\\s+→ 200\\s+\\d+ ms`)), { timeout: 5_000 });

    l.child.kill('SIGTERM');
    expect(await exited(l.child)).toBe(0);
    expect(l.out()).toMatch(/removed subscription wh_/);
  });

  it('t-v1-hmac-sha256: verified by stripe.webhooks.constructEvent; a failing receiver\'s status goes back to the sandbox, which retries', { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-listen-'));
    const secret = `whsec_${Buffer.from('listen-test-secret-0123456789ab').toString('base64')}`;
    const stripe = new Stripe('sk_test_unused');
    let answer = 500;
    const rx = await partnerReceiver((body, h) => stripe.webhooks.constructEvent(body, h['x-service-signature'] as string, secret) as unknown as { id: string; type: string }, () => answer);
    const l = await listen(['--forward-to', rx.url, '--sandbox-port', '0', '--secret', secret, '--secret-file', join(dir, 'unused'), '--events', 'position.created']);
    expect(l.out()).toMatch(/with the secret you gave/);
    expect(l.out()).not.toContain(secret);

    const t = await runBin(['trigger', 'position.created', '--base-url', l.base]);
    const eventId = /triggered position\.created (\S+)/.exec(t.stdout)![1];
    await vi.waitFor(() => expect(rx.got).toHaveLength(1), { timeout: 15_000, interval: 50 });
    expect(rx.got[0].verified).toMatchObject({ id: eventId, type: 'position.created' });
    await vi.waitFor(() => expect(l.out()).toMatch(new RegExp(`position\\.created\\s+${eventId}\\s+→ 500`)), { timeout: 5_000 });
    // The sandbox saw the receiver's 500: its attempt failed and a retry is scheduled.
    // (recorded a moment after the answer, so polled)
    const attempts = async () => ((await (await fetch(`${l.base}/sandbox/events/${eventId}/attempts`, { headers: { authorization: 'Bearer ck_test_partner_a_growth' } })).json()) as { attempts: Array<{ status: number | null; outcome: string }> }).attempts;
    await vi.waitFor(async () => expect((await attempts()).map((a) => [a.status, a.outcome])).toEqual([[500, 'failed'], [null, 'pending']]), { timeout: 5_000, interval: 50 });
    answer = 200;
    // An event of a type the subscription did not ask for is not delivered.
    await runBin(['trigger', 'withdrawal.completed', '--base-url', l.base]);
    l.child.kill('SIGINT');
    expect(await exited(l.child)).toBe(0);
    expect(rx.got).toHaveLength(1);
  });

  it('trigger says so when the target has no controls, with its own exit code', { timeout: 60_000 }, async () => {
    const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"no route"}}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const r = await runBin(['trigger', 'position.matched', '--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`]);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/has no sandbox controls \(POST \/sandbox\/trigger answered 404\)/);
    const bad = await runBin(['trigger', 'position.exploded']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown event type "position.exploded"/);
  });
});
