import { EVENT_TYPES } from '../../contract/index.ts';
import { acknowledged, describeAnswer, failedWith, passedWith, type CertifyCheck } from './checks.ts';
import { makeEvent } from './events.ts';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const burstChecks: CertifyCheck[] = [
  {
    id: 'burst',
    title: 'a burst of N distinct deliveries at once is acknowledged, every one within 5 s',
    requirements: ['HOOK-answer-5s'],
    exclusive: true,
    async run(ctx) {
      const bodies = Array.from({ length: ctx.burst }, (_, i) => JSON.stringify(makeEvent(EVENT_TYPES[i % EVENT_TYPES.length])));
      const all = await Promise.all(bodies.map((b) => ctx.send(b)));
      const ms = all.map((d) => d.ms).sort((a, b) => a - b);
      ctx.figure('burstSize', ctx.burst);
      ctx.figure('burstP50Ms', Math.round(percentile(ms, 50)));
      ctx.figure('burstP99Ms', Math.round(percentile(ms, 99)));
      const bad = all.filter((d) => !acknowledged(ctx, d));
      const stats = `p50 ${Math.round(percentile(ms, 50))} ms, p99 ${Math.round(percentile(ms, 99))} ms`;
      if (bad.length === 0) return passedWith(ctx, undefined, [`${ctx.burst} deliveries: ${stats}`]);
      return failedWith(ctx, `a burst of ${ctx.burst} deliveries`, `${ctx.burst} acknowledgements within ${ctx.deadlineMs} ms`, `${ctx.burst - bad.length} acknowledged (${stats}); first other answer: ${describeAnswer(bad[0], ctx.deadlineMs)}`, bad[0]);
    },
  },
];
