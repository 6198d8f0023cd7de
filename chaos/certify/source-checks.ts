import { readFileSync } from 'node:fs';
import { failed, failure, pass } from '../../kernel/check-kernel.ts';
import type { CertifyCheck } from './checks.ts';

// A comparison with == or === on strings is functionally right, and the time it leaks is
// far below what can be measured over a network in a test run, so it cannot be observed
// from outside. This check reads the receiver's source instead (given with --source):
// an equality operator with a signature-like operand, in a file that never calls a
// constant-time compare, is reported. A heuristic, stated as one in the failure message.

const SIG_NAME = /\b\w*(sig|signature|digest|hmac|mac|expected)\w*\b/i;
const NOT_A_VALUE = /^(undefined|null|true|false|''|""|``|\d+|typeof\b.*)$/;

export function findLooseSignatureCompares(text: string): string[] {
  const hits: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    for (const m of code.matchAll(/([\w.$[\]'"]+)\s*(===|!==|==|!=)\s*([\w.$[\]'"]+)/g)) {
      const [, left, op, right] = m;
      if (NOT_A_VALUE.test(left) || NOT_A_VALUE.test(right) || /\.length$/.test(left) || /\.length$/.test(right)) continue;
      if (SIG_NAME.test(left) || SIG_NAME.test(right)) hits.push(`line ${i + 1}: ${left} ${op} ${right}`);
    }
  });
  return hits;
}

export const sourceChecks: CertifyCheck[] = [
  {
    id: 'source.constant-time-compare',
    title: 'the receiver compares signatures in constant time (source inspection)',
    requirements: ['HOOK-verify-raw'],
    // Without --source the kernel skips with the vocabulary's reason (kernel/needs.ts).
    needs: ['receiver-source'],
    async run(ctx) {
      const problems: string[] = [];
      for (const file of ctx.sources) {
        const text = readFileSync(file, 'utf8');
        const hits = findLooseSignatureCompares(text);
        const constantTime = /timingSafeEqual|verifyWebhook|constantTimeEqual|safeCompare/.test(text);
        if (hits.length && !constantTime) problems.push(`${file}: ${hits.join('; ')}`);
      }
      return problems.length === 0
        ? pass({ notes: [`inspected ${ctx.sources.length} file(s) (heuristic)`] })
        : failed(failure('the receiver source', 'signatures compared with a constant-time function (crypto.timingSafeEqual or verifyWebhook)', `ordinary equality on a signature (heuristic): ${problems.join(' | ')}`));
    },
  },
];
