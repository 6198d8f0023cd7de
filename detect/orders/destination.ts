import { ADDRESS_FORMS } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { tradeAsset } from '../market/assets.ts';
import { errorText, ok, type Detector } from '../probe.ts';

// The withdrawal destination form among known candidates (contract/addresses.ts): one
// withdrawal per form's sample address, for more than any user holds, so nothing moves. A
// target that checks the destination refuses the foreign forms naming destination and the
// own one for the amount (insufficient funds). A pattern outside the candidates, or a
// target that checks funds first (every form then looks taken), leaves it undetected.

/** Far above any sandbox balance: the withdrawal is refused, never made. */
const TOO_MUCH = '1000000000000000';

export const destinationDetector: Detector = {
  name: 'withdrawal destination form',
  options: ['withdrawals.destinationPattern'],
  async run(p) {
    const asset = tradeAsset(p);
    const user = p.user('destination');
    const send = (destination: string) => p.call('user.withdraw', { params: { userId: user }, body: { asset, amount: TOO_MUCH, destination } });
    const refusedForDestination = (r: Reply) => !ok(r) && /destination/.test(errorText(r));
    const replies: Reply[] = [];
    const taken: string[] = [];
    for (const f of ADDRESS_FORMS) {
      const r = await send(f.sample);
      replies.push(r);
      if (!refusedForDestination(r)) taken.push(f.pattern);
    }
    // Each sample fits its own form only (contract/addresses.ts), so one form taken names the pattern.
    if (taken.length === 1) {
      const form = ADDRESS_FORMS.find((f) => f.pattern === taken[0])!;
      p.facts.set('destination', form.sample);
      p.set('withdrawals.destinationPattern', form.pattern, 'medium', replies, `of ${ADDRESS_FORMS.map((f) => f.name).join(', ')}, only the ${form.name} sample was not refused naming destination (a pattern outside these forms would not be seen)`);
    } else {
      p.miss('withdrawals.destinationPattern', `${taken.length} of ${ADDRESS_FORMS.length} candidate forms were taken (${ADDRESS_FORMS.map((f) => f.name).join(', ')}): the pattern is none of them`);
    }
  },
};
