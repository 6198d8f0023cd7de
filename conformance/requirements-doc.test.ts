import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requirementsMarkdown } from './requirements-doc.ts';

// docs/requirements.md is generated from the requirement table (issue 47): the committed page
// is what the table says today.

describe('docs/requirements.md', () => {
  const page = requirementsMarkdown();

  it('is current: regenerate with npm run requirements:doc', () => {
    expect(readFileSync(new URL('../docs/requirements.md', import.meta.url), 'utf8')).toBe(page);
  });

  it('says, for the order book, the sentence, what it binds, the checks, and fail or advise', () => {
    const at = page.indexOf('### SHAPE-orderbook (fails)');
    const section = page.slice(at, page.indexOf('###', at + 4));
    expect(section).toContain('> Object with `lends` and `borrows`, each an array of `{rate: number, amount: string}`.');
    expect(section).toContain('- Binds the answers of: GET /markets/{id}/orderbook');
    expect(section).toMatch(/Enforced by: .*`endpoint\.public\.orderbook`/);
    expect(page).toContain('### STATE-rate-may-differ (advises)');
    expect(page).toMatch(/\| `maturity` \| .* \| SHAPE-position \|/);
  });
});
