import { ADDRESS_FORMS } from '../../contract/index.ts';
import { tradeAsset } from '../market/assets.ts';
import { errorOf, errorText, type Detector } from '../probe.ts';

// What a target does with a request body field it does not list (profile requests.unknownFields):
// one withdrawal far above any balance, to the destination found, with one extra field. A target
// that refuses it names the field (reject); one that ignores it gets as far as the funds
// (insufficient_funds: ignore). A target that checks funds before fields would look like one
// that ignores them, so that reading is medium confidence.

const TOO_MUCH = '1000000000000000';
const EXTRA = 'lendcheckUnlistedField';

export const unknownFieldsDetector: Detector = {
  name: 'unknown request fields',
  options: ['requests.unknownFields'],
  async run(p) {
    const asset = tradeAsset(p);
    const destination = p.fact<string>('destination') ?? ADDRESS_FORMS[0]!.sample;
    const r = await p.call('user.withdraw', { params: { userId: p.user('unknown-fields') }, body: { asset, amount: TOO_MUCH, destination, [EXTRA]: true } });
    const code = errorOf(r)?.code;
    if (r.status >= 400 && r.status < 500 && errorText(r).includes(EXTRA.toLowerCase())) {
      p.set('requests.unknownFields', 'reject', 'high', [r], `a withdrawal with the extra field ${EXTRA} was refused naming it (${r.status} ${code ?? ''})`);
    } else if (code === 'insufficient_funds') {
      p.set('requests.unknownFields', 'ignore', 'medium', [r], `a withdrawal with the extra field ${EXTRA} got as far as the funds (insufficient_funds), so the field was not refused`);
    } else {
      p.miss('requests.unknownFields', `a withdrawal of ${TOO_MUCH} ${asset} with the extra field ${EXTRA} answered ${r.status} ${code ?? ''}: neither a refusal naming the field nor insufficient_funds`);
    }
  },
};
