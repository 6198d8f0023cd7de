import { EVENT_TYPES, WEBHOOK_RETRY_DELAYS_MS } from '../../contract/index.ts';
import { acknowledged, ackWanted, describeAnswer, failedWith, passedWith, type CertifyCheck, type CertifyContext } from './checks.ts';
import { makeEvent } from './events.ts';

const ackWithin = async (ctx: CertifyContext, raw: string, title: string) => {
  const d = await ctx.send(raw);
  return acknowledged(ctx, d) ? passedWith(ctx, d) : failedWith(ctx, title, ackWanted(ctx), describeAnswer(d, ctx.deadlineMs), d);
};

/** A type no sender emits today, in the spec's naming style. */
export const UNKNOWN_EVENT_TYPE = 'position.future_event';
const RETRY_SPAN = (() => {
  const min = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 60_000;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
})();

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
  {
    id: 'delivery.unknown-type',
    title: `a signed delivery of an event type outside today's six (${UNKNOWN_EVENT_TYPE}) is acknowledged within 5 s`,
    requirements: ['HOOK-answer-5s', 'HOOK-event-types'],
    async run(ctx) {
      // The spec leaves the change policy open (part 9), so a new type may arrive any day. A
      // receiver that refuses what it does not know turns it into the full retry schedule and
      // then a lost event; acknowledging and ignoring it costs nothing.
      const raw = JSON.stringify({ ...makeEvent('position.created'), type: UNKNOWN_EVENT_TYPE });
      const d = await ctx.send(raw);
      if (acknowledged(ctx, d)) return passedWith(ctx, d);
      const why = `; a delivery that is not acknowledged is retried for ${RETRY_SPAN} (${WEBHOOK_RETRY_DELAYS_MS.length} retries) and then given up, so the first new event type the sender adds would be lost`;
      return failedWith(ctx, `a signed ${UNKNOWN_EVENT_TYPE} delivery`, `${ackWanted(ctx)} for an event type the receiver does not know (acknowledge and ignore it)`, `${describeAnswer(d, ctx.deadlineMs)}${why}`, d);
    },
  },
];
