import { skip, type Outcome } from '../../kernel/check-kernel.ts';
import { SIGNATURE_HEADER } from '../../contract/index.ts';
import { generateWebhookSecret, STANDARD_WEBHOOK_HEADERS } from '../../signing/signature.ts';
import { variantOf } from '../../signing/variants.ts';
import { describeAnswer, failedWith, passedWith, type CertifyCheck, type CertifyContext } from './checks.ts';
import { makeEvent } from './events.ts';

const REQS = ['HOOK-invalid-401', 'HOOK-verify-raw', 'HOOK-signature-header'];

async function expect401(ctx: CertifyContext, raw: string, signature: Record<string, string> | null, title: string): Promise<Outcome> {
  const d = await ctx.send(raw, { signature });
  return d.status === 401 && d.ms <= ctx.deadlineMs ? passedWith(ctx, d) : failedWith(ctx, title, `401 within ${ctx.deadlineMs} ms`, describeAnswer(d, ctx.deadlineMs), d);
}
const body = () => JSON.stringify(makeEvent('position.matched'));

/** Valid headers with every signature value replaced by a well-formed wrong one of the scheme's form. */
function forged(ctx: CertifyContext, raw: string): Record<string, string> {
  // Signed under the same scheme with another secret: well formed for every variant of the table (signing/variants.ts).
  const wrong = ctx.sign(raw, { secret: generateWebhookSecret() })[SIGNATURE_HEADER]!;
  const h = ctx.sign(raw);
  for (const k of [SIGNATURE_HEADER, STANDARD_WEBHOOK_HEADERS.signature]) if (k in h) h[k] = wrong;
  return h;
}

const timestampCheck = (id: string, dir: -1 | 1): CertifyCheck => ({
  id,
  title: `a correctly signed delivery with a ${dir < 0 ? 'stale' : 'future'} timestamp beyond the tolerance gets 401`,
  requirements: REQS,
  async run(ctx) {
    if (variantOf(ctx.scheme).form === 'bare') return skip(`scheme ${ctx.scheme} carries no timestamp, so there is no replay window to test`);
    const raw = body();
    const t = Math.floor(Date.now() / 1000) + dir * (ctx.profile.signature.toleranceSeconds + 600);
    return expect401(ctx, raw, ctx.sign(raw, { timestamp: t }), `a delivery signed with a ${dir < 0 ? 'stale' : 'future'} timestamp`);
  },
});

export const signatureChecks: CertifyCheck[] = [
  {
    id: 'signature.invalid',
    title: 'a well-formed but wrong signature gets 401',
    requirements: REQS,
    run: (ctx) => {
      const raw = body();
      return expect401(ctx, raw, forged(ctx, raw), 'a delivery with a wrong signature');
    },
  },
  {
    id: 'signature.missing',
    title: 'a delivery without x-service-signature gets 401',
    requirements: REQS,
    run: (ctx) => expect401(ctx, body(), null, 'a delivery without a signature'),
  },
  {
    id: 'signature.tampered-body',
    title: 'a body changed after signing gets 401',
    requirements: REQS,
    async run(ctx) {
      const raw = body();
      const sig = ctx.sign(raw);
      const ev = JSON.parse(raw) as { data: { amount: string } };
      return expect401(ctx, raw.replace(`"amount":"${ev.data.amount}"`, `"amount":"9${ev.data.amount}"`), sig, 'a body changed after signing');
    },
  },
  {
    id: 'signature.wrong-secret',
    title: 'a signature made with another secret gets 401',
    requirements: REQS,
    async run(ctx) {
      const raw = body();
      return expect401(ctx, raw, ctx.sign(raw, { secret: generateWebhookSecret() }), 'a delivery signed with another secret');
    },
  },
  {
    id: 'signature.reserialized',
    title: 'a signature over re-serialized JSON instead of the raw bytes gets 401',
    requirements: REQS,
    async run(ctx) {
      // The raw body is indented; the signature covers the compact re-serialization. Only a
      // receiver that verifies over JSON.stringify(JSON.parse(raw)) finds them equal.
      const ev = makeEvent('position.matched');
      return expect401(ctx, JSON.stringify(ev, null, 2), ctx.sign(JSON.stringify(ev)), 'a signature over re-serialized JSON');
    },
  },
  timestampCheck('signature.stale-timestamp', -1),
  timestampCheck('signature.future-timestamp', 1),
];
