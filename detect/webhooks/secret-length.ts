import { WEBHOOK_SECRET_PREFIX } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { boundIn } from '../orders/bounds.ts';
import { errorText, ok, type Detector, successOption } from '../probe.ts';
import { findId } from '../../conformance/body-id.ts';
import { lastTrueInt } from '../search.ts';
import type { RecordingReceiver } from '../../receiver/recording.ts';

// webhooks.secretMinLength: the spec gives the secret only its prefix, so a minimum length is
// stated only where a refusal was seen (null otherwise: the document then states none). An
// undetected minimum the target enforces would fail it under Schemathesis, which sends the
// shortest secret the pattern allows. The prefix alone is tried first; refused naming
// `secret`, the minimum is read from the message (as a length after the prefix, or in all)
// and checked at its edge, or searched for. Where subscriptions can be deleted, a probe goes
// to the receiver detection already runs, for withdrawal.completed only, and is deleted at
// once when taken. Where they cannot, a probe names a plain-http address on a reserved name
// (.invalid), which a target asking HTTPS refuses naming `url` once the secret has passed: a
// target that checks the url first shows nothing, and the option stays undetected (null).

/** A plain-http address on a reserved name (RFC 6761): never reached, and refused by a target asking HTTPS. */
export const UNREACHABLE_URL = 'http://lendcheck-secret-probe.invalid/hook';

/** The longest secret length searched: past it, no minimum is stated. */
export const MAX_SEARCHED = 64;

const secretOf = (length: number) => WEBHOOK_SECRET_PREFIX + 'A'.repeat(Math.max(0, length - WEBHOOK_SECRET_PREFIX.length));

export const secretLengthDetector: Detector = {
  name: 'webhook secret length',
  options: ['webhooks.secretMinLength'],
  async run(p) {
    const receiver = p.fact<{ receiver: RecordingReceiver }>('subscription')?.receiver;
    if (!receiver) return p.miss('webhooks.secretMinLength', 'no subscription was made to learn the request from');
    const standard = p.found.get('signature.scheme')?.value === 'standard-webhooks';
    const deletable = p.found.has(successOption('webhooks.delete'));
    const url = deletable ? receiver.url : UNREACHABLE_URL;
    const evidence: Reply[] = [];
    const notes: string[] = [];
    /** Whether a secret of `length` characters is refused naming secret (false: it passed). */
    const refused = async (length: number): Promise<boolean> => {
      const r = await p.call('webhooks.create', { body: { url, events: ['withdrawal.completed'], secret: secretOf(length) } });
      evidence.push(r);
      const text = errorText(r);
      if (r.status >= 400 && r.status < 500 && /secret/.test(text)) return true;
      if (!deletable && r.status >= 400 && r.status < 500 && /url/.test(text)) return false;
      if (!ok(r)) throw new Error(`a subscription with a ${length}-character secret answered ${r.status} ${text.slice(0, 160)}`);
      const id = findId(r.json, p.found.get('ids.webhook')?.value as string | undefined, ['userId']);
      if (deletable && id) await p.call('webhooks.delete', { params: { webhookId: id.value } });
      else notes.push(`a probe subscription to ${url} was taken and could not be deleted`);
      return false;
    };
    const shortest = WEBHOOK_SECRET_PREFIX.length;
    if (standard) {
      // Under standard-webhooks a secret is whsec_ + base64 (length a multiple of 4), so only lengths
      // 6 + 4k are valid secrets: a refusal of one of those naming secret is about its length. The
      // minimum was missed here before, and Schemathesis's short secret was refused (neutrality soak, seed 3).
      const lengthOf = (k: number) => shortest + 4 * k;
      const top = Math.floor((MAX_SEARCHED - shortest) / 4);
      if (!(await refused(lengthOf(1)))) {
        if (!ok(evidence[0]!)) return p.miss('webhooks.secretMinLength', 'a subscription with the shortest base64 secret was refused naming url: the target checks the url first, so its secret rule does not show');
        return p.set('webhooks.secretMinLength', null, 'high', evidence, `the shortest standard-webhooks secret (${lengthOf(1)} characters) was taken`);
      }
      if (await refused(lengthOf(top))) return p.miss('webhooks.secretMinLength', `even a ${lengthOf(top)}-character base64 secret was refused naming secret`);
      const k = (await lastTrueInt(1, top - 1, (n) => refused(lengthOf(n)))) + 1;
      return p.set('webhooks.secretMinLength', lengthOf(k), 'medium', [evidence[0]!, ...evidence.slice(-2)], [`${lengthOf(k)} characters taken, ${lengthOf(k - 1)} refused naming secret (standard-webhooks: base64 lengths only, so the minimum lies in ${lengthOf(k - 1) + 1}..${lengthOf(k)}; the stated ${lengthOf(k)} is never below it)`, ...notes].join('; '));
    }
    if (!(await refused(shortest))) {
      // Refused for its url alone: the secret passed, unless the target checks the url first.
      if (!ok(evidence[0]!)) return p.miss('webhooks.secretMinLength', 'a subscription with the prefix alone as its secret was refused naming url: the target checks the url first, so its secret rule does not show');
      return p.set('webhooks.secretMinLength', null, 'high', evidence, `the prefix alone (${shortest} characters) was taken as a secret`);
    }
    const first = evidence[0]!;
    // The figure a refusal names: a count after the prefix, or the whole length.
    const named = boundIn(first, 0, MAX_SEARCHED + 1);
    for (const length of named === undefined ? [] : [named + shortest, named].filter((l) => l > shortest && l <= MAX_SEARCHED)) {
      if (!(await refused(length)) && (await refused(length - 1))) {
        return p.set('webhooks.secretMinLength', length, 'high', [first, ...evidence.slice(-3)], [`${length} characters taken, ${length - 1} refused naming secret (the figure its message names)`, ...notes].join('; '));
      }
    }
    if (await refused(MAX_SEARCHED)) return p.miss('webhooks.secretMinLength', `even a ${MAX_SEARCHED}-character secret was refused naming secret`);
    const longestRefused = await lastTrueInt(shortest, MAX_SEARCHED - 1, refused);
    p.set('webhooks.secretMinLength', longestRefused + 1, 'high', [first, ...evidence.slice(-2)], [`${longestRefused + 1} characters taken, ${longestRefused} refused naming secret (a binary search)`, ...notes].join('; '));
  },
};
