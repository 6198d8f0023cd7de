import { EVENT_TYPES } from '../../contract/index.ts';
import { describeAnswer, failed, isAck, passed, registerCheck, type CertifyContext, type CheckOutcome } from './checks.ts';
import { makeEvent } from './events.ts';

const ackWithin = async (ctx: CertifyContext, raw: string): Promise<CheckOutcome> => {
  const d = await ctx.send(raw);
  const want = `${ctx.profile.webhooks.successStatuses === '200' ? '200' : 'a 2xx'} within ${ctx.deadlineMs} ms`;
  return isAck(ctx.profile, d.status) && d.ms <= ctx.deadlineMs ? passed(d) : failed(want, describeAnswer(d, ctx.deadlineMs), d);
};

for (const type of EVENT_TYPES) {
  registerCheck({
    id: `delivery.${type}`,
    title: `a signed ${type} delivery is acknowledged within 5 s`,
    requirements: ['HOOK-answer-5s', 'HOOK-event-types', 'HOOK-verify-raw'],
    run: (ctx) => ackWithin(ctx, JSON.stringify(makeEvent(type))),
  });
}

registerCheck({
  id: 'delivery.raw-bytes',
  title: 'a correctly signed body in another JSON layout (indentation, key order, \\u escapes) is acknowledged',
  requirements: ['HOOK-verify-raw', 'HOOK-answer-5s'],
  async run(ctx) {
    // Same JSON value as a compact body, but bytes no serializer would reproduce: a receiver
    // that verifies over JSON.stringify(JSON.parse(body)) rejects it.
    const ev = makeEvent('position.matched');
    const raw = `{\n  "type" : "${ev.type}",\n  "id" : "${ev.id}",\n  "timestamp" : "${ev.timestamp}",\n  "data" : ${JSON.stringify(ev.data, null, 4).replace('"userId"', '"user\\u0049d"')}\n}\n`;
    return ackWithin(ctx, raw);
  },
});
