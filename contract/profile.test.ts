import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultProfile, loadProfile, parseProfile, profileSchema } from './profile.ts';
import { NOT_SHOWN } from './not-shown.ts';
import { SPEC_NOT_SHOWN_LINES } from './spec-not-shown.ts';
import * as shapes from './shapes.ts';

const specPath = fileURLToPath(new URL('../../shared/spec/partner-interface.md', import.meta.url));

function get(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

describe('profile', () => {
  it('answers every "not shown" line of the spec (from the repo\'s own copy of those lines)', () => {
    const lines = [...SPEC_NOT_SHOWN_LINES];
    expect(lines.length).toBeGreaterThan(20);
    const unanswered = lines.filter((l) => !NOT_SHOWN.some((n) => l.includes(n.phrase)));
    expect(unanswered).toEqual([]);
    for (const n of NOT_SHOWN) expect(lines.filter((l) => l.includes(n.phrase)), n.phrase).toHaveLength(1);
  });

  // The copy must be the spec's: checked wherever the spec sits beside the repo (../shared),
  // as in CI; a clone on its own has no spec to compare with.
  it.skipIf(!existsSync(specPath))(`keeps contract/spec-not-shown.ts equal to the spec's "not shown" lines (skips where ${specPath} is absent)`, () => {
    const lines = readFileSync(specPath, 'utf8').split('\n').filter((l) => l.includes('not shown'));
    expect(SPEC_NOT_SHOWN_LINES, 'regenerate with: node scripts/spec-not-shown.mjs').toEqual(lines);
  });

  it('names only options and shapes that exist', () => {
    for (const n of NOT_SHOWN) {
      for (const a of n.answers) {
        const found = a.startsWith('shapes.') ? (shapes as Record<string, unknown>)[a.slice(7)] : get(defaultProfile, a);
        expect(found, `${n.phrase} -> ${a}`).toBeDefined();
      }
    }
  });

  it('documents every option with the spec text and a reason', () => {
    const json = JSON.stringify(profileSchema.toJSONSchema?.() ?? {});
    const reasons = json.match(/"reason":/g) ?? [];
    expect(reasons.length).toBeGreaterThanOrEqual(40);
  });

  it('overrides defaults from a file and validates it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-profile-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ ratesPath: '/market-rates', pagination: { overMax: 'clamp' } }));
    const p = loadProfile(good);
    expect(p.ratesPath).toBe('/market-rates');
    expect(p.pagination.overMax).toBe('clamp');
    expect(p.pagination.lastPageCursor).toBe('omit');
    expect(p.signature.scheme).toBe('t-v1-hmac-sha256');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ limits: { resetUnit: 'fortnights' } }));
    expect(() => loadProfile(bad)).toThrow(/limits\.resetUnit/);
    expect(() => parseProfile({ successStatus: { 'POST /lend': 404 } })).toThrow(/successStatus/);
  });
});
