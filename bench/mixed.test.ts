import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { figuresFromPoints } from './mixed.ts';

describe('mixed benchmark figures', () => {
  it('counts requests, p99 and statuses per endpoint from k6 points, leaving setup and other metrics out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-mixed-'));
    try {
      const point = (metric: string, value: number, tags: Record<string, string>) => JSON.stringify({ type: 'Point', metric, data: { time: '', value, tags } });
      const lines = [
        JSON.stringify({ type: 'Metric', metric: 'http_req_duration', data: {} }),
        ...Array.from({ length: 100 }, (_, i) => point('http_req_duration', i + 1, { endpoint: 'position.get', status: i < 90 ? '200' : '429', group: '' })),
        point('http_req_duration', 5000, { endpoint: 'lend.create', status: '201', group: '::setup' }),
        point('http_req_duration', 7, { endpoint: 'lend.create', status: '201', group: '' }),
        point('http_reqs', 1, { endpoint: 'lend.create', status: '201', group: '' }),
      ];
      const file = join(dir, 'points.json');
      writeFileSync(file, lines.join('\n'));
      const f = await figuresFromPoints(file, 10);
      expect(f['position.get']).toEqual({ requests: 100, rps: 10, p99: 100, statuses: { 200: 90, 429: 10 } });
      expect(f['lend.create']).toEqual({ requests: 1, rps: 0.1, p99: 7, statuses: { 201: 1 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
