import { describe, expect, it } from 'vitest';
import { createSandbox } from '../app.ts';
import { listItemView } from '../engine/views.ts';

describe('list pages built from SQLite JSON text', () => {
  it('carry exactly what listItemView builds from the row objects, page by page', async () => {
    const sb = createSandbox({ plugins: [], liquidity: { enabled: false, delaySeconds: 5 } });
    try {
      const h = { authorization: 'Bearer ck_test_partner_a_scale', 'content-type': 'application/json' };
      const rates = [0.05, 0.123456, 0.2, 0.5, 0.000001];
      for (let i = 0; i < 25; i++) {
        // Odd clock steps give timestamps with every kind of millisecond part.
        sb.clock.advance(1000 * 3600 * 7 + 37 * i + 1);
        const body = JSON.stringify({ userId: 'u"\\ü', asset: i % 2 ? 'USDC' : 'USDT', amount: `${i + 1}.5`, rate: rates[i % rates.length], maturity: i % 3 ? '90d' : '30d' });
        const r = await sb.fetch(new Request("http://x/v1/lend", { method: "POST", headers: h, body }));
        expect(r.status, await r.clone().text()).toBe(201);
      }
      let cursor: string | undefined;
      let pages = 0;
      do {
        const q = { limit: 10, ...(cursor ? { cursor } : {}) };
        const json = sb.engine.listPositions('partner_a', 'u"\\ü', q, 'json');
        const rows = sb.engine.listPositions('partner_a', 'u"\\ü', q, 'rows');
        expect(json.items!.map((t) => JSON.parse(t))).toEqual(rows.rows.map(listItemView));
        expect(json.hasMore).toBe(rows.hasMore);
        cursor = json.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      // And over HTTP the page parses to the same items (validated against the schema under tests).
      const res = await sb.fetch(new Request(`http://x/v1/users/${encodeURIComponent('u"\\ü')}/positions?limit=5`, { headers: h }));
      expect(res.status).toBe(200);
      const page = (await res.json()) as { positions: unknown[]; hasMore: boolean; nextCursor?: string };
      expect(page.positions).toEqual(sb.engine.listPositions('partner_a', 'u"\\ü', { limit: 5 }).rows.map(listItemView));
      expect(page.hasMore).toBe(true);
    } finally {
      await sb.close();
    }
  });
});
