import { acknowledged, describeAnswer, failedWith, passedWith, type CertifyCheck } from './checks.ts';
import { makeEvent } from './events.ts';

export const idempotencyChecks: CertifyCheck[] = [
  {
    id: 'idempotency.sequential',
    title: 'the same event delivered twice, one after the other, is acknowledged both times',
    requirements: ['HOOK-idempotent', 'HOOK-answer-5s'],
    async run(ctx) {
      const raw = JSON.stringify(makeEvent('position.matched'));
      const first = await ctx.send(raw);
      if (!acknowledged(ctx, first)) return failedWith(ctx, 'the first delivery', `acknowledged within ${ctx.deadlineMs} ms`, describeAnswer(first, ctx.deadlineMs), first);
      const second = await ctx.send(raw);
      return acknowledged(ctx, second)
        ? passedWith(ctx, second)
        : failedWith(ctx, 'the repeated delivery', `acknowledged within ${ctx.deadlineMs} ms (idempotent by event id)`, describeAnswer(second, ctx.deadlineMs), second);
    },
  },
  {
    id: 'idempotency.concurrent',
    title: 'the same event delivered five times at once is acknowledged every time',
    requirements: ['HOOK-idempotent', 'HOOK-answer-5s'],
    async run(ctx) {
      const raw = JSON.stringify(makeEvent('position.matched'));
      const all = await Promise.all(Array.from({ length: 5 }, () => ctx.send(raw)));
      const bad = all.filter((d) => !acknowledged(ctx, d));
      return bad.length === 0
        ? passedWith(ctx, all[0])
        : failedWith(ctx, 'five concurrent deliveries of one event', `5 acknowledgements within ${ctx.deadlineMs} ms`, `${5 - bad.length} acknowledged; others: ${bad.map((d) => describeAnswer(d, ctx.deadlineMs)).join('; ')}`, bad[0]);
    },
  },
];
