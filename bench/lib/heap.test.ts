import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { liveHeapBytes } from './heap.ts';

describe('liveHeapBytes', () => {
  it('sums a real snapshot to about the heap in use, and sees 20 MB more when 20 MB is retained', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-heap-'));
    try {
      const before = liveHeapBytes(writeHeapSnapshot(join(dir, 'a.heapsnapshot')));
      const kept = Array.from({ length: 20 }, () => new Float64Array(128 * 1024).fill(1)); // 20 × 1 MiB, retained below
      const after = liveHeapBytes(writeHeapSnapshot(join(dir, 'b.heapsnapshot')));
      expect(kept.length).toBe(20);
      expect(before).toBeGreaterThan(1e6);
      expect(after - before).toBeGreaterThan(19 * 2 ** 20);
      expect(after - before).toBeLessThan(24 * 2 ** 20);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
