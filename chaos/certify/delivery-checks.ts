import { EVENT_TYPES } from '../../contract/index.ts';
import { acknowledged, ackWanted, describeAnswer, failedWith, passedWith, type CertifyCheck, type CertifyContext } from './checks.ts';
import { makeEvent } from './events.ts';

const ackWithin = async (ctx: CertifyContext, raw: string, title: string) => {
  const d = await ctx.send(raw);
  return acknowledged(ctx, d) ? passedWith(ctx, d) : failedWith(ctx, title, ackWanted(ctx), describeAnswer(d, ctx.deadlineMs), d);
};

export const deliveryChecks: CertifyCheck[] = [
  ...EVENT_TYPES.map(
    (type): CertifyCheck => ({
      id: `delivery.${type}`,
      title: `a signed ${type} delivery is acknowledged within 5 s`,
      requirements: ['HOOK-answer-5s', 'HOOK-event-types', 'HOOK-verify-raw'],
      run: (ctx) => ackWithin(ctx, JSON.stringify(makeEvent(type)), `a signed ${type} delivery`),
    }),
  ),
  {
    id: 'delivery.raw-bytes',
    title: 'a correctly signed body in another JSON layout (indentation, key order, \\u escapes) is acknowledged',
    requirements: ['HOOK-verify-raw', 'HOOK-answer-5s'],
    async run(ctx) {
      // Same JSON value as a compact body, but bytes no serializer would reproduce: a receiver
      // that verifies over JSON.stringify(JSON.parse(body)) rejects it.
      const ev = makeEvent('position.matched');
      const raw = `{\n  "type" : "${ev.type}",\n  "id" : "${ev.id}",\n  "timestamp" : "${ev.timestamp}",\n  "data" : ${JSON.stringify(ev.data, null, 4).replace('"userId"', '"user\\u0049d"')}\n}\n`;
      return ackWithin(ctx, raw, 'a signed body in another JSON layout');
    },
  },
];
