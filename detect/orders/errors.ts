import { errorChoiceOf, errorText, ok, type Detector, successOption } from '../probe.ts';
import { probeAmount } from './probe-amount.ts';

// Codes the spec leaves open, each from one request that provokes it: an unknown route, a
// known path with the wrong method, a body sent as text/plain, an unseen user, an
// unsupported asset. Anything not answered with the spec's error object stays undetected.

export const errorsDetector: Detector = {
  name: 'error codes',
  options: [successOption('orderbook.get'), 'errors.unknownRoute', 'errors.methodNotAllowed', 'errors.unsupportedMediaType', 'errors.unknownUser', 'errors.unsupportedAsset'],
  async run(p) {
    const choice = async (option: string, what: string, send: () => ReturnType<typeof p.call>, names?: RegExp) => {
      const r = await send();
      const c = errorChoiceOf(r);
      if (c && names && !names.test(errorText(r))) p.miss(option, `${what} answered ${r.status} ${c.code} about something else: ${errorText(r).slice(0, 200)}`);
      else if (c) p.set(option, c, 'high', [r], what);
      else p.miss(option, `${what} answered ${r.status} without the error object`);
    };
    await choice('errors.unknownRoute', 'GET of a path no endpoint has', () => p.api('GET', `/no-such-route-${p.opts.runId}`));
    await choice('errors.methodNotAllowed', 'DELETE on /lend (a POST path)', () => p.call('lend.create', { method: 'DELETE' }));
    await choice('errors.unsupportedMediaType', 'a valid lend body sent as text/plain', () =>
      p.call('lend.create', { raw: JSON.stringify({ userId: p.user('ct'), asset: 'USDC', amount: probeAmount(p, '1'), maturity: '99999d' }), headers: { 'content-type': 'text/plain' } }),
      /content|media|json/,
    );
    const u = await p.call('positions.list', { params: { userId: p.user('never-seen') } });
    const uc = errorChoiceOf(u);
    if (ok(u)) p.set('errors.unknownUser', 'empty-list', 'high', [u], 'an unseen user lists no positions');
    else if (uc?.code === 'position_not_found') p.set('errors.unknownUser', 'position_not_found', 'high', [u]);
    else p.miss('errors.unknownUser', `an unseen user's list answered ${u.status} ${uc?.code ?? ''}, neither option`);
    const assets = p.fact<string[]>('assets') ?? [];
    const book = await p.call('orderbook.get', { params: { asset: assets[0] ?? 'USDC' } });
    if (ok(book)) p.set(successOption('orderbook.get'), book.status, 'high', [book]);
    else p.miss(successOption('orderbook.get'), `the order book of ${assets[0] ?? 'USDC'} answered ${book.status}`);
    const asset = ['DOGE', 'XYZ', 'NOPE'].find((a) => !assets.includes(a))!;
    await choice('errors.unsupportedAsset', `a lend of ${asset}`, () => p.call('lend.create', { body: { userId: p.user('asset'), asset, amount: probeAmount(p), maturity: '99999d' } }), /asset/);
  },
};
