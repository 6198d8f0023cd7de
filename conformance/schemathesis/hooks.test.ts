import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMATHESIS_HOOKS_FILE } from './config.ts';
import { ensureSchemathesis } from './ensure-schemathesis.mjs';

// hooks.py: ST401's probe without credentials answered 429 by the public bucket is a refusal, not
// "authentication not enforced" (soak seed 3); a 2xx to that probe still fails the check. Run in the
// pinned Schemathesis' own Python, since the hook patches its predicate.

let python: string | undefined;
let why = '';
try {
  python = join(dirname(ensureSchemathesis() as string), 'python');
} catch (e) {
  why = (e as Error).message;
}

describe.skipIf(!python)(`Schemathesis hooks (skipped without Schemathesis: ${why || 'n/a'})`, () => {
  it('reads a 429 to the unauthenticated probe as a refusal; a 2xx still fails', () => {
    const script = [
      'import runpy, types',
      `runpy.run_path(${JSON.stringify(SCHEMATHESIS_HOOKS_FILE)})`,
      'from schemathesis.specs.openapi import checks as c',
      "R = lambda s: types.SimpleNamespace(status_code=s, request=types.SimpleNamespace(url='http://t/v1/lend'))",
      'print([c._enforces_auth(R(s), R(200)) for s in (429, 401, 403, 200, 404)])',
    ].join('\n');
    const r = spawnSync(python!, ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('[True, True, True, False, False]');
  });
});
