import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BINDINGS } from './requirement-binds.ts';
import { REQUIREMENTS } from './requirements.ts';
import { SPEC_NAMED } from './spec-named.ts';

// Issue 47: every requirement says what it binds, in the spec's own words.

const specPath = fileURLToPath(new URL('../../shared/spec/partner-interface.md', import.meta.url));
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('what each requirement binds', () => {
  it('every requirement has a binding (a misspelt key leaves its requirement unbound, so it shows here)', () => {
    expect(REQUIREMENTS.filter((q) => !q.binds).map((q) => q.id)).toEqual([]);
  });

  it('each binds something, and its text is the quote', () => {
    for (const q of REQUIREMENTS) {
      const b = q.binds!;
      expect((b.response?.length ?? 0) + (b.request?.length ?? 0) + (b.beyond?.length ?? 0), q.id).toBeGreaterThan(0);
      expect(q.text, q.id).toBe(BINDINGS[q.id]!.quote);
    }
  });

  it("the part 2 types a not-shown body is advised on lean on a requirement", () => {
    const ids = new Set(REQUIREMENTS.map((q) => q.id));
    for (const [field, n] of Object.entries(SPEC_NAMED)) expect(ids.has(n.requirement), `${field}: ${n.requirement}`).toBe(true);
  });

  // The spec sits beside the repository in CI (as for contract/spec-not-shown.ts); a clone on its own has none to compare with.
  it.skipIf(!existsSync(specPath))(`quotes the spec verbatim, fragment by fragment (skips where ${specPath} is absent)`, () => {
    const spec = squash(readFileSync(specPath, 'utf8'));
    const missing = Object.entries(BINDINGS).flatMap(([id, b]) => b.quote.split(' … ').filter((f) => !spec.includes(squash(f))).map((f) => `${id}: ${f}`));
    expect(missing).toEqual([]);
  });
});
