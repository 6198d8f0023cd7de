import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { connectInspector, inspectorUrl } from './inspector.ts';

describe('heap after GC over the inspector', () => {
  it('sees garbage go and 20 MB of retained arrays stay', async () => {
    // The child makes 50 MB of garbage at once; the test then has it retain 20 MB.
    const code = 'let junk = Array.from({ length: 50 }, () => new Array(131072).fill(1.5)); junk = null; setInterval(() => {}, 1000);';
    const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '-e', code], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr!.on('data', (d) => {
          err += d;
          const u = inspectorUrl(err);
          if (u) resolve(u);
        });
        setTimeout(() => reject(new Error(`no inspector URL: ${err}`)), 20_000);
      });
      const ins = await connectInspector(url);
      const before = await ins.heapAfterGc();
      expect(await ins.evaluate('(globalThis.kept = Array.from({ length: 20 }, () => new Array(131072).fill(1.5))).length')).toBe(20);
      const after = await ins.heapAfterGc();
      ins.close();
      expect(before.heapUsed).toBeLessThan(20 * 2 ** 20); // the 50 MB of garbage was collected
      expect(after.heapUsed - before.heapUsed).toBeGreaterThan(19 * 2 ** 20);
      expect(after.heapUsed - before.heapUsed).toBeLessThan(26 * 2 ** 20);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
