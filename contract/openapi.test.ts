import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiText } from './openapi.ts';
import { endpoints } from './endpoints.ts';
import { defaultProfile } from './profile.ts';
import { REQUIREMENT_IDS, REQUIREMENTS } from './requirements.ts';

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

  it('holds every endpoint of the table', () => {
    const doc = JSON.parse(committed) as { paths: Record<string, Record<string, unknown>> };
    for (const e of endpoints(defaultProfile)) expect(doc.paths[e.path]?.[e.method.toLowerCase()], e.id).toBeDefined();
  });
});

describe('requirement index', () => {
  it('has unique ids, and endpoints cite only known ones', () => {
    expect(REQUIREMENT_IDS.size).toBe(REQUIREMENTS.length);
    for (const e of endpoints(defaultProfile)) for (const id of e.requirements) expect(REQUIREMENT_IDS.has(id), `${e.id}: ${id}`).toBe(true);
  });
});
