import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Sender } from './sender.ts';
import { wireFaults, type Exchange } from './toxic-door.ts';
import { validateFaults } from '../faults/index.ts';
import { wireSettings } from './faults/index.ts';

// A toxic's deadline reaches the send through Request signals that follow each other by weak
// reference: a garbage collection mid-send once left the attempt hanging (CI, 1 run in 3).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('sender door under garbage collection', () => {
  it('passes a deadline on to a send that only holds the signal', async () => {
    const door = wireFaults(wireSettings(validateFaults([{ name: 'hook-sender-timeout', config: { timeoutMs: 200 } }])))!;
    const slow: Sender = (_u, _b, _h, signal) => new Promise((r) => signal.addEventListener('abort', () => r({ status: null, error: 'aborted' })));
    const x: Exchange = { url: 'http://rx.test/hook', body: '{}', headers: { 'content-type': 'application/json' }, signal: new AbortController().signal, attempt: 1, sign: () => ({}) };
    const sent = door(slow, x);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 10));
      gc();
    }
    const out = await Promise.race([sent, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 2_000))]);
    expect(out).not.toBe('hung');
    expect((out as { result: unknown }).result).toEqual({ status: null, error: 'no answer within 200 ms' });
  });
});
