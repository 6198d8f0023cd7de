import { ADDRESS_FORMS } from '../../contract/index.ts';
import { tradeAsset } from '../market/assets.ts';
import { errorOf, ok, type Detector } from '../probe.ts';

// Whether insufficient_funds carries details.required and details.available (spec part 7
// shows them; the concurrency family reads a user's funds from them, else searches): one
// withdrawal far above any balance, to the destination the destination detector found.

const TOO_MUCH = '1000000000000000';
const DECIMAL = /^-?\d+(\.\d+)?$/;

export const fundsDetailsDetector: Detector = {
  name: 'insufficient_funds details',
  options: ['errors.insufficientFundsDetails'],
  async run(p) {
    const asset = tradeAsset(p);
    const destination = p.fact<string>('destination') ?? ADDRESS_FORMS[0]!.sample;
    const r = await p.call('user.withdraw', { params: { userId: p.user('funds-details') }, body: { asset, amount: TOO_MUCH, destination } });
    if (ok(r) || errorOf(r)?.code !== 'insufficient_funds') {
      p.miss('errors.insufficientFundsDetails', `a withdrawal of ${TOO_MUCH} ${asset} answered ${r.status} ${errorOf(r)?.code ?? ''}, not insufficient_funds`);
      return;
    }
    const d = (r.json as { error?: { details?: { required?: unknown; available?: unknown } } }).error?.details;
    const given = typeof d?.required === 'string' && DECIMAL.test(d.required) && typeof d.available === 'string' && DECIMAL.test(d.available);
    p.set('errors.insufficientFundsDetails', given, 'high', [r], given ? 'details.required and details.available are decimal strings' : 'insufficient_funds came without details.required and details.available as decimal strings');
  },
};
