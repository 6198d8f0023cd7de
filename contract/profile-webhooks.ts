import { z } from 'zod';
import { WEBHOOK_SECRET_PREFIX } from './constants.ts';
import { doc } from './profile-doc.ts';
import { closestSchemeName, SIGNATURE_SCHEME_NAMES } from './signature-schemes.ts';

// The profile's options about webhooks (part 6): the signature and the subscriptions. Part
// of the profile (contract/profile.ts); kept here so that file stays within its size.

// A bad name is refused naming it and the closest known one (issue 47: the user names the scheme).
const schemeName = z.enum(SIGNATURE_SCHEME_NAMES, {
  error: (iss) =>
    typeof iss.input === 'string'
      ? `unknown signature scheme ${JSON.stringify(iss.input)}: did you mean ${closestSchemeName(iss.input)}? (one of ${SIGNATURE_SCHEME_NAMES.join(', ')})`
      : undefined,
});

export const signatureOptions = z
  .object({
    scheme: doc(schemeName.nullable().default('t-v1-hmac-sha256'), {
      spec: 'Part 6: "The signing algorithm and the encoding of the signature: not shown."',
      reason: `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> (Stripe\'s form) binds a timestamp against replay. Also: hmac-sha256-hex (bare hex HMAC of the body), standard-webhooks (webhook-id/-timestamp/-signature: v1,<base64>, secret whsec_<base64>; the signature also in x-service-signature), and the common variants of an HMAC over the raw body: hmac-<sha256|sha512|sha1>-<hex|base64>[-prefixed|-v1|-v1-comma] (prefix <alg>=, v1= or v1,) and t-v1-hmac-<alg>[-base64]. null: unknown (detection matched none): every check that verifies a signature skips, naming this option.`,
    }),
    toleranceSeconds: doc(z.number().int().min(1).default(300), {
      spec: 'Part 6: replay window of the timestamp: not shown.',
      reason: 'Five minutes, as Stripe and Standard Webhooks use.',
    }),
  })
  .prefault({});

export const webhooksOptions = z
  .object({
    secretRequired: doc(z.boolean().default(false), {
      spec: 'Part 4: POST /webhooks `secret`: "whether optional or required: not shown".',
      reason: 'Optional: when omitted the server generates a whsec_ secret and returns it once.',
    }),
    // A bound the spec does not give: a detected profile states it only where a refusal was seen (null otherwise).
    secretMinLength: doc(z.number().int().min(1).nullable().default(WEBHOOK_SECRET_PREFIX.length + 16), {
      spec: 'Part 2: the subscription `secret` is a "signing secret, prefix `whsec_`"; a minimum length: not shown.',
      reason: `The prefix and at least 16 characters (${WEBHOOK_SECRET_PREFIX.length + 16} in all), so a partner's own secret carries some entropy; a shorter one is refused naming \`secret\`. null: no bound (the exported document states none).`,
    }),
    registrationSecret: doc(z.enum(['when-generated', 'always']).default('when-generated'), {
      spec: 'Part 2: the subscription has a `secret`; "fields of the ... webhook registration result: not shown".',
      reason: 'Shown once, when the server generated it: a partner who gave its own already has it. `always`: the answer echoes a given secret too.',
    }),
    afterFinalRetry: doc(z.enum(['mark-failed', 'drop', 'disable-subscription']).default('mark-failed'), {
      spec: 'Part 6, rule 4: "What happens after the fifth retry fails: not shown."',
      reason: 'The event is kept, marked failed and visible through a control endpoint; nothing is sent after it.',
    }),
    retryDelayFrom: doc(z.enum(['attempt-end', 'attempt-start']).default('attempt-end'), {
      spec: 'Part 6, rule 3: "retried up to five times, after these delays: 1 minute, 5 minutes, …"; after what point (the failed attempt\'s start or its end): not shown.',
      reason: 'From the end of the failed attempt (its answer, error or 5 s timeout), so a slow receiver never shortens the pause it asked for.',
    }),
    successStatuses: doc(z.enum(['2xx', '200']).default('2xx'), {
      spec: 'Part 6: the receiver "answers with status 200"; what the sender counts as success: not shown.',
      reason: 'Any 2xx counts, as every major sender does.',
    }),
    allowLoopbackHttp: doc(z.boolean().default(true), {
      spec: 'Part 2: the url is the partner\'s HTTPS address; local testing: not shown.',
      reason: 'The sandbox takes http:// on loopback so partners can point it at a local receiver.',
    }),
    requireHttps: doc(z.boolean().default(false), {
      spec: 'Part 2: the subscription `url` is "Partner\'s HTTPS receiving address"; whether a plain http:// address is refused: not shown.',
      reason: 'Not required (a sandbox may take http://): lendcheck reports an accepted http:// address as an advisory note. true: it must be refused (loopback too unless allowLoopbackHttp).',
    }),
    refuseInternalAddresses: doc(z.boolean().default(false), {
      spec: 'Part 6: deliveries go to the subscribed url; addresses inside the service\'s own network (loopback, link-local 169.254.169.254, private ranges): not shown.',
      reason: 'Not required (a sandbox delivers to local receivers): an accepted one is an advisory note with the answer as evidence. true: link-local and private addresses must be refused (loopback too unless allowLoopbackHttp), against server-side request forgery.',
    }),
    listAndDelete: doc(z.boolean().default(true), {
      spec: 'Part 4 mentions a webhook list; its endpoints: not shown.',
      reason: 'GET /webhooks and DELETE /webhooks/{webhookId}, the usual pair.',
    }),
    deleteWithoutList: doc(z.boolean().default(false), {
      spec: 'Part 4 names no delete endpoint; a target may offer DELETE /webhooks/{webhookId} without a list.',
      reason: 'Off: the delete comes with the list (listAndDelete). `profile detect` deletes its own subscription on a target without a list, and records whether it could.',
    }),
    matchedIncludesType: doc(z.boolean().default(true), {
      spec: 'Part 6: position.matched data: "one form also holds type".',
      reason: 'The richer form; receivers must not depend on it either way.',
    }),
  })
  .prefault({});
