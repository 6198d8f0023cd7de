import { describeAnswer, failed, isAck, passed, registerCheck } from './checks.ts';
import { makeEvent } from './events.ts';

registerCheck({
  id: 'idempotency.sequential',
  title: 'the same event delivered twice, one after the other, is acknowledged both times',
  requirements: ['HOOK-idempotent', 'HOOK-answer-5s'],
  async run(ctx) {
    const raw = JSON.stringify(makeEvent('position.matched'));
    const first = await ctx.send(raw);
    if (!isAck(ctx.profile, first.status) || first.ms > ctx.deadlineMs) return failed(`first delivery acknowledged within ${ctx.deadlineMs} ms`, describeAnswer(first, ctx.deadlineMs), first);
    const second = await ctx.send(raw);
    return isAck(ctx.profile, second.status) && second.ms <= ctx.deadlineMs
      ? passed(second)
      : failed(`the repeated delivery acknowledged within ${ctx.deadlineMs} ms (idempotent by event id)`, describeAnswer(second, ctx.deadlineMs), second);
  },
});

registerCheck({
  id: 'idempotency.concurrent',
  title: 'the same event delivered five times at once is acknowledged every time',
  requirements: ['HOOK-idempotent', 'HOOK-answer-5s'],
  async run(ctx) {
    const raw = JSON.stringify(makeEvent('position.matched'));
    const all = await Promise.all(Array.from({ length: 5 }, () => ctx.send(raw)));
    const bad = all.filter((d) => !isAck(ctx.profile, d.status) || d.ms > ctx.deadlineMs);
    return bad.length === 0
      ? passed(all[0])
      : failed(`5 acknowledgements within ${ctx.deadlineMs} ms`, `${5 - bad.length} acknowledged; others: ${bad.map((d) => describeAnswer(d, ctx.deadlineMs)).join('; ')}`, bad[0]);
  },
});
