import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApi, openApiText } from './document.ts';
import { endpoints } from '../endpoints.ts';
import { defaultProfile, parseProfile, profileSchema } from '../profile.ts';
import { REQUIREMENT_IDS, REQUIREMENTS } from '../requirements.ts';

describe('OpenAPI export', () => {
  const committed = readFileSync(new URL('./openapi.json', import.meta.url), 'utf8');

  it('is up to date with the contract (run `npm run openapi` when this fails)', () => {
    expect(committed).toBe(openApiText());
  });

  it('is valid OpenAPI 3.1', async () => {
    const v = new Validator();
    const res = await v.validate(JSON.parse(committed));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(v.version).toBe('3.1');
  });

  it('holds every endpoint of the table, the shared order book once', () => {
    const doc = JSON.parse(committed) as { paths: Record<string, Record<string, { operationId: string; 'x-operation-ids'?: string[] }>> };
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    for (const e of endpoints(defaultProfile)) expect(ops.some((o) => o.operationId === e.id || o['x-operation-ids']?.includes(e.id)), e.id).toBe(true);
    const shapes = Object.keys(doc.paths).map((p) => p.replace(/\{\w+\}/g, '{}'));
    expect(new Set(shapes).size).toBe(shapes.length);
    const book = doc.paths['/markets/{id}/orderbook'].get as unknown as { security: unknown[] };
    expect(book.security).toEqual([{ bearer: [] }, {}]);
  });

  it('follows the profile: its assets, maturities and periods', () => {
    const p = profileSchema.parse({ assets: { borrow: ['USDC', 'EURC'], info: { ...defaultProfile.assets.info, EURC: { decimals: 6, oraclePriceUsd: '1.1' } } }, markets: { maturities: ['7d', '30d'], periods: ['1d', '1y'] } });
    const doc = buildOpenApi(p) as { paths: Record<string, Record<string, { parameters: Array<{ name: string; schema: { enum?: string[]; anyOf?: Array<{ enum: string[] }> } }>; requestBody?: { content: { 'application/json': { schema: { properties: Record<string, { enum?: string[] }> } } } } }>> };
    expect(doc.paths['/analytics/tvl'].get.parameters.find((x) => x.name === 'period')?.schema.enum).toEqual(['1d', '1y']);
    expect(doc.paths['/borrow'].post.requestBody?.content['application/json'].schema.properties.borrowAsset.enum).toEqual(['USDC', 'EURC']);
    const seg = doc.paths['/markets/{id}/orderbook'].get.parameters.find((x) => x.name === 'id')?.schema.anyOf;
    expect(seg?.[0].enum).toContain('EURC');
    expect(seg?.[1].enum).toContain('EURC-7d');
    expect(doc.paths['/markets/{id}/orderbook'].get.parameters.find((x) => x.name === 'maturity')?.schema.enum).toEqual(['7d', '30d']);
  });

  it('documents an error status where the sandbox answers one, and links created positions to their operations', () => {
    const doc = buildOpenApi() as { paths: Record<string, Record<string, { responses: Record<string, { links?: Record<string, { operationId: string }> }> }>> };
    expect(doc.paths['/webhooks/{webhookId}'].delete.responses['404']).toBeDefined();
    expect(doc.paths['/vaults/{id}'].get.responses['404']).toBeDefined();
    expect(doc.paths['/sandbox/trigger'].post.responses['404']).toBeDefined();
    expect(doc.paths['/sandbox/events/{eventId}/attempts'].get.responses['404']).toBeDefined();
    const links = Object.values(doc.paths['/lend'].post.responses['201'].links ?? {}).map((l) => l.operationId);
    expect(links).toEqual(expect.arrayContaining(['position.get', 'position.cancel', 'position.repay', 'position.patch']));
  });
});

describe('OpenAPI export under every profile', () => {
  const profiles = [
    ...['fintech-rest', 'minimal-sandbox', 'strict-gateway'].map((n) => parseProfile(JSON.parse(readFileSync(new URL(`../../examples/profiles/${n}.json`, import.meta.url), 'utf8')))),
    // What `profile detect` writes: named ids and recorded bodies.
    parseProfile({ ids: { webhook: 'id', withdrawal: 'withdrawalId', repay: 'positionId' }, webhooks: { secretRequired: true }, responses: { 'POST /borrow': { fields: { positionId: 'string', userId: 'string' } } } }),
  ];

  it('is valid OpenAPI 3.1 for each', async () => {
    for (const p of profiles) {
      const res = await new Validator().validate(buildOpenApi(p));
      expect(res.errors ?? [], p.name).toEqual([]);
    }
  });

  it('has no link reading a field its response does not require: every link resolves on every answer, the last page included', () => {
    type Resp = { content?: { 'application/json'?: { schema?: { required?: string[] } } }; links?: Record<string, { parameters: Record<string, string> }> };
    let links = 0;
    for (const p of [defaultProfile, ...profiles]) {
      const doc = buildOpenApi(p) as { paths: Record<string, Record<string, { responses: Record<string, Resp> }>> };
      for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) for (const [status, r] of Object.entries(op.responses)) {
        for (const [name, link] of Object.entries(r.links ?? {})) {
          for (const expr of Object.values(link.parameters)) {
            const field = /^\$response\.body#\/(\w+)$/.exec(expr)?.[1];
            if (!field) continue;
            links++;
            expect(r.content?.['application/json']?.schema?.required ?? [], `${p.name} ${method} ${path} ${status} ${name} reads ${field}`).toContain(field);
          }
        }
      }
    }
    expect(links).toBeGreaterThan(10);
  });
});

describe('requirement index', () => {
  it('has unique ids, and endpoints cite only known ones', () => {
    expect(REQUIREMENT_IDS.size).toBe(REQUIREMENTS.length);
    for (const e of endpoints(defaultProfile)) for (const id of e.requirements) expect(REQUIREMENT_IDS.has(id), `${e.id}: ${id}`).toBe(true);
  });
});
