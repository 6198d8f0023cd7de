import { randomBytes } from 'node:crypto';
import { EVENT_TYPES, SIGNATURE_HEADER, WEBHOOK_SECRET_PREFIX } from '../../contract/index.ts';
import { describeScheme, matchSignatureScheme, SIGNATURE_SCHEMES } from '../../signing/signature.ts';
import { errorText, ok, type Detector, type Probe, successOption } from '../probe.ts';
import { findId } from '../../conformance/body-id.ts';
import { arrivalExchange, payloadOf, startRecordingReceiver, type Arrival, type RecordingReceiver } from '../../receiver/recording.ts';
import { createRedactor } from '../../reports/redact.ts';

// Webhooks, in two parts around the organic orders of ../orders/lifecycle.ts: first lendcheck's own
// receiver is subscribed (is a secret required? where is the id? is a loopback http URL
// taken? is there a list?); afterwards the deliveries those orders caused are read (the
// signature scheme that verifies with the secret, whether position.matched holds type),
// and the subscription is deleted.

/** How long the deliveries of the organic orders are waited for. */
export const DELIVERY_WAIT_MS = 10_000;

const LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])[:/]/;

interface Subscription { id?: string; idField?: string; secret?: string; receiver: RecordingReceiver; registered?: boolean }

function findSecret(v: unknown): string | undefined {
  if (typeof v === 'string') return v.startsWith(WEBHOOK_SECRET_PREFIX) ? v : undefined;
  if (v && typeof v === 'object') for (const x of Object.values(v)) {
    const s = findSecret(x);
    if (s) return s;
  }
  return undefined;
}

export const subscribeDetector: Detector = {
  name: 'webhook subscription',
  options: ['webhooks.secretRequired', 'webhooks.registrationSecret', 'webhooks.allowLoopbackHttp', 'webhooks.listAndDelete', 'ids.webhook', successOption('webhooks.create'), successOption('webhooks.list')],
  async run(p) {
    // Detection listens on the loopback and gives the target --receiver-host, the name the
    // target reaches it by (e.g. host.docker.internal), where the gate's receivers listen on it.
    const receiver = await startRecordingReceiver({ path: '/lendcheck-detect', host: '127.0.0.1', advertise: p.opts.receiverHost });
    const sub: Subscription = { receiver };
    p.facts.set('subscription', sub);
    const body = { url: receiver.url, events: [...EVENT_TYPES] };
    let r = await p.call('webhooks.create', { body });
    let ours: string | undefined;
    if (ok(r)) p.set('webhooks.secretRequired', false, 'high', [r], 'a subscription without secret was taken');
    else if (/secret/.test(errorText(r))) {
      const first = r;
      ours = WEBHOOK_SECRET_PREFIX + randomBytes(24).toString('hex');
      p.http.addSecret(ours);
      r = await p.call('webhooks.create', { body: { ...body, secret: ours } });
      if (ok(r)) p.set('webhooks.secretRequired', true, 'high', [first, r], 'refused without secret naming it, taken with one');
    }
    if (!ok(r)) {
      if (/url/.test(errorText(r)) && LOOPBACK.test(receiver.url)) p.set('webhooks.allowLoopbackHttp', false, 'medium', [r], 'an http loopback URL was refused naming url');
      throw new Error(`POST /webhooks answered ${r.status} ${errorText(r).slice(0, 200)}`);
    }
    sub.registered = true;
    p.set(successOption('webhooks.create'), r.status, 'high', [r]);
    if (LOOPBACK.test(receiver.url)) p.set('webhooks.allowLoopbackHttp', true, 'high', [r], `${receiver.url} was taken`);
    sub.secret = ours ?? findSecret(r.json);
    if (sub.secret) p.http.addSecret(sub.secret);
    if (ours) p.set('webhooks.registrationSecret', findSecret(r.json) === ours ? 'always' : 'when-generated', 'high', [r], findSecret(r.json) === ours ? 'the answer echoed the secret given' : 'the answer did not show the secret given');
    const id = findId(r.json, undefined, ['userId']);
    if (id) {
      Object.assign(sub, { id: id.value, idField: id.field });
      p.set('ids.webhook', id.field, 'high', [r], 'the one field of the registration named like an id');
    } else p.miss('ids.webhook', 'the registration has no single field named like an id');
    const list = await p.call('webhooks.list');
    if (ok(list)) {
      p.set(successOption('webhooks.list'), list.status, 'high', [list]);
      p.set('webhooks.listAndDelete', true, 'high', [list]);
    } else if (list.status >= 400 && list.status < 500 && list.status !== 429) {
      // The key that just subscribed is refused the list: it is not served, whatever status the
      // target gives an unknown route or method (open: mutator seed 12 answered 400, and the
      // default kept asserted a list the spec's table does not have).
      p.set('webhooks.listAndDelete', false, 'medium', [list], `GET /webhooks is not served (answered ${list.status} to the key that subscribed)`);
    }
    if (!ours) await echoProbe(p, receiver.url, body.events, ok(list));
  },
};

/**
 * Whether a registration echoes a secret the partner gave, on a target that did not need one:
 * a second subscription with a secret of lendcheck's own, deleted at once (before any order,
 * so nothing is delivered to it). Only where subscriptions can be deleted: one left behind
 * would be retried against a receiver that is gone.
 */
async function echoProbe(p: Probe, url: string, events: string[], deletable: boolean): Promise<void> {
  if (!deletable) return p.miss('webhooks.registrationSecret', 'reading it needs a second subscription with a given secret, and this target lists (and deletes) none');
  const secret = WEBHOOK_SECRET_PREFIX + randomBytes(24).toString('hex');
  p.http.addSecret(secret);
  const r = await p.call('webhooks.create', { body: { url, events, secret } });
  if (!ok(r)) return p.miss('webhooks.registrationSecret', `a subscription with a given secret answered ${r.status}`);
  const echoed = findSecret(r.json) === secret;
  p.set('webhooks.registrationSecret', echoed ? 'always' : 'when-generated', 'high', [r], echoed ? 'the answer echoed the secret given' : 'the answer did not show the secret given');
  const id = findId(r.json, p.found.get('ids.webhook')?.value as string | undefined, ['userId']);
  if (id) await p.call('webhooks.delete', { params: { webhookId: id.value } });
}

export const deliveriesDetector: Detector = {
  name: 'webhook deliveries',
  options: ['signature.scheme', 'webhooks.matchedIncludesType', successOption('webhooks.delete'), 'webhooks.deleteWithoutList'],
  async run(p) {
    const sub = p.fact<Subscription>('subscription');
    if (!sub?.registered) throw new Error('no subscription was made');
    const expectMatched = p.fact<boolean>('matched') === true;
    const arrived = await sub.receiver.waitFor((g) => g.some((d) => typeOf(d) === (expectMatched ? 'position.matched' : 'position.created')), DELIVERY_WAIT_MS);
    if (!arrived) p.miss('signature.scheme', `no ${expectMatched ? 'position.matched' : 'position.created'} delivery within ${DELIVERY_WAIT_MS / 1000} s`);
    const ex = (d: Arrival) => arrivalExchange(d, sub.receiver.url, createRedactor([...p.secrets, sub.secret ?? '']));
    const signed = sub.receiver.got.find((d) => d.headers[SIGNATURE_HEADER]);
    if (signed && sub.secret) {
      // Every variant of the table (signing/variants.ts) is tried; the one that verifies is recorded.
      const scheme = matchSignatureScheme(signed.raw, signed.headers, sub.secret, { toleranceSeconds: 3600 })?.scheme;
      if (scheme) p.set('signature.scheme', scheme, 'high', [ex(signed)], `the delivery's ${SIGNATURE_HEADER} verifies under ${scheme} (${describeScheme(scheme)}) with the subscription secret`);
      // None: unknown, recorded as null so every check that verifies skips naming the option; never a guess.
      else p.set('signature.scheme', null, 'high', [ex(signed)], `the delivery's ${SIGNATURE_HEADER} verifies under none of the ${SIGNATURE_SCHEMES.length} variants lendcheck knows: unknown (name it with --signature-scheme NAME or signature.scheme)`);
    } else if (signed) p.miss('signature.scheme', 'the registration gave no secret to verify with');
    const matched = sub.receiver.got.find((d) => typeOf(d) === 'position.matched');
    if (matched) {
      const data = (payloadOf(matched) as { data?: Record<string, unknown> })?.data;
      p.set('webhooks.matchedIncludesType', data !== undefined && 'type' in data, 'high', [ex(matched)]);
    } else p.miss('webhooks.matchedIncludesType', `no position.matched delivery within ${DELIVERY_WAIT_MS / 1000} s`);
    await deleteOwn(p, sub);
  },
};

/**
 * Deletes the subscription detection made, whether or not a list was found: a target may offer
 * the delete alone (issue 33), and a subscription left behind is retried against a receiver
 * that is gone. Without an id, the methods the subscription path allows are read instead.
 */
export async function deleteOwn(p: Probe, sub: Pick<Subscription, 'id'>): Promise<void> {
  const listed = p.found.get('webhooks.listAndDelete')?.value !== false;
  if (!sub.id) return listed ? p.miss('webhooks.deleteWithoutList', 'the registration gave no id to delete') : allowProbe(p);
  const del = await p.call('webhooks.delete', { params: { webhookId: sub.id } });
  if (ok(del)) {
    p.set(successOption('webhooks.delete'), del.status, 'high', [del]);
    if (!listed) p.set('webhooks.deleteWithoutList', true, 'high', [del], 'GET /webhooks is not served, DELETE of the subscription was');
    return;
  }
  p.miss(successOption('webhooks.delete'), `DELETE answered ${del.status}`);
  if (listed) return;
  // Not served: 404/405/501, or what this target answers an unknown route or method with (errors detector).
  const absent = [404, 405, 501, ...['errors.unknownRoute', 'errors.methodNotAllowed'].map((o) => (p.found.get(o)?.value as { status?: number } | undefined)?.status)];
  if (absent.includes(del.status)) p.set('webhooks.deleteWithoutList', false, 'medium', [del], `DELETE of the subscription just made answered ${del.status}`);
  else p.miss('webhooks.deleteWithoutList', `DELETE of the subscription answered ${del.status}`);
}

/** No id to delete with: a 405 on the subscription path lists the methods it has in Allow (RFC 9110). */
async function allowProbe(p: Probe): Promise<void> {
  const r = await p.call('webhooks.delete', { params: { webhookId: 'lendcheck-allow-probe' }, method: 'GET' });
  const allow = r.headers.allow;
  if (r.status === 405 && allow) {
    const has = /\bDELETE\b/i.test(allow);
    return p.set('webhooks.deleteWithoutList', has, 'medium', [r], `the registration gave no id; GET /webhooks/{id} answered 405 with Allow: ${allow}`);
  }
  p.miss('webhooks.deleteWithoutList', `the registration gave no id to delete, and GET /webhooks/{id} answered ${r.status}${allow ? ` (Allow: ${allow})` : ' with no Allow'}`);
}

const typeOf = (d: Arrival) => (payloadOf(d) as { type?: unknown } | undefined)?.type;

