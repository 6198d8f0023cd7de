import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, REQUIREMENT_IDS, REQUIREMENTS } from '../contract/index.ts';
import { allChecks } from './registry.ts';
import { RECEIVER_SIDE } from './receiver-side.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

describe('requirement coverage', () => {
  const checks = allChecks(defaultProfile);

  it('cites only requirement ids that exist, and ids are unique', () => {
    for (const c of checks) for (const r of c.requirements) expect(REQUIREMENT_IDS.has(r), `${c.id} cites ${r}`).toBe(true);
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
  });

  it('covers every requirement of the contract by at least one check (receiver-side ones by chaos/)', () => {
    const cited = new Set(checks.flatMap((c) => c.requirements));
    const uncovered = REQUIREMENTS.map((q) => q.id).filter((id) => !cited.has(id) && !(RECEIVER_SIDE as readonly string[]).includes(id));
    expect(uncovered).toEqual([]);
  });

  it('finds each receiver-side requirement cited by a chaos/ check', () => {
    const chaos = join(root, 'chaos');
    const text = filesUnder(chaos).map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const id of RECEIVER_SIDE) expect(text, `${id} in chaos/`).toContain(`'${id}'`);
  });

  it('keeps the registry valid under another profile (rates path, no webhook list)', () => {
    const p = parseProfile({ ratesPath: '/market-rates', webhooks: { listAndDelete: false } });
    const ids = allChecks(p).map((c) => c.id);
    expect(ids).not.toContain('endpoint.webhooks.list');
    expect(ids).toContain('endpoint.rates.get');
  });
});
