import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INSTALL_SCRIPTS, publishedManifest } from './pack-manifest.mjs';

// The package.json npm packs (prepack's `strip`): this checkout's, less every install script.
describe('the published package.json', () => {
  const checkout = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  const published = JSON.parse((publishedManifest as (t: string) => string)(checkout)) as { scripts: Record<string, string>; exports: unknown; dependencies: unknown };

  it('carries no install script, and the rest as it was', () => {
    for (const s of INSTALL_SCRIPTS as string[]) expect(published.scripts[s], s).toBeUndefined();
    const before = JSON.parse(checkout) as { scripts: Record<string, string>; exports: unknown; dependencies: unknown };
    expect(published.exports).toEqual(before.exports);
    expect(published.dependencies).toEqual(before.dependencies);
    expect(published.scripts.build).toBe(before.scripts.build);
  });
});
