import { describe, expect, it, afterAll } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise } from 'dependency-cruiser';

// The rules `npm run lint:deps` enforces, run over a small tree written for the purpose, so a
// rule that stopped matching (a renamed folder, a broken regex) fails here, not silently in lint.

const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as { forbidden: unknown[] };
const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-deps-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmp, 'tree-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function violations(dir: string): Promise<string[]> {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const r = await cruise(['.'], { validate: true, ruleSet: { forbidden: config.forbidden } as never, tsPreCompilationDeps: true, enhancedResolveOptions: { extensions: ['.ts'] } } as never);
    const out = r.output as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
    return out.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  } finally {
    process.chdir(cwd);
  }
}

describe('dependency rules (npm run lint:deps)', () => {
  it('refuses shipped code importing a testing/ folder, and allows tests, drills and the bench to', async () => {
    const dir = tree({
      'sandbox/testing/delay.ts': 'export const delay = 1;\n',
      'cli/commands/sandbox.ts': "import { delay } from '../../sandbox/testing/delay.ts';\nexport const x = delay;\n",
      'cli/commands/sandbox.test.ts': "import { delay } from '../../sandbox/testing/delay.ts';\nexport const y = delay;\n",
      'sandbox/testing/drill.ts': "import { delay } from './delay.ts';\nexport const z = delay;\n",
      'bench/drill.ts': "import { delay } from '../sandbox/testing/delay.ts';\nexport const w = delay;\n",
    });
    expect(await violations(dir)).toEqual(['no-testing-in-shipped-code: cli/commands/sandbox.ts → sandbox/testing/delay.ts']);
  });

  it('keeps the rooms one way: the sandbox never imports a suite, contract imports nothing of the house; tests may', async () => {
    const dir = tree({
      'contract/profile.ts': 'export const p = 1;\n',
      'contract/openapi/document.ts': "import { p } from '../profile.ts';\nexport const d = p;\n",
      'conformance/http.ts': "import { p } from '../contract/profile.ts';\nexport const h = p;\n",
      'sandbox/app.ts': "import { h } from '../conformance/http.ts';\nexport const a = h;\n",
      'sandbox/app.test.ts': "import { h } from '../conformance/http.ts';\nexport const t = h;\n",
      'contract/needs-kernel.ts': "import { k } from '../kernel/check-kernel.ts';\nexport const n = k;\n",
      'kernel/check-kernel.ts': 'export const k = 1;\n',
    });
    expect((await violations(dir)).sort()).toEqual(['room-contract: contract/needs-kernel.ts → kernel/check-kernel.ts', 'room-sandbox: sandbox/app.ts → conformance/http.ts']);
  });

  it('keeps the floors inside sandbox/ one way: an arrow back up, or beside on one floor, fails; down is fine; tests may', async () => {
    const dir = tree({
      'sandbox/answer/errors.ts': 'export const e = 1;\n',
      'sandbox/engine/engine.ts': "import { e } from '../answer/errors.ts';\nexport const en = e;\n",
      'sandbox/pipeline/plugin.ts': "import { en } from '../engine/engine.ts';\nexport const p = en;\n",
      // The planted back-arrow: the engine reaching up into the pipeline.
      'sandbox/engine/orders.ts': "import { p } from '../pipeline/plugin.ts';\nexport const o = p;\n",
      'sandbox/engine/orders.test.ts': "import { p } from '../pipeline/plugin.ts';\nexport const t = p;\n",
      'sandbox/limiter/plugin.ts': "import { p } from '../pipeline/plugin.ts';\nexport const l = p;\n",
      'sandbox/webhooks/plugin.ts': "import { l } from '../limiter/plugin.ts';\nexport const w = l;\n",
      'sandbox/app.ts': "import { w } from './webhooks/plugin.ts';\nexport const a = w;\n",
      'sandbox/newroom/x.ts': "import { a } from '../app.ts';\nexport const x = a;\n",
    });
    expect((await violations(dir)).sort()).toEqual([
      'sandbox-floor-engine: sandbox/engine/orders.ts → sandbox/pipeline/plugin.ts',
      'sandbox-floor-unplaced: sandbox/newroom/x.ts → sandbox/app.ts',
      'sandbox-floor-webhooks: sandbox/webhooks/plugin.ts → sandbox/limiter/plugin.ts',
    ]);
  });

  it('holds testing/ folders to their room and floor too (issue 49): a drill of a lower floor reaching up fails; the top testing/ floor and tests may', async () => {
    const dir = tree({
      'sandbox/engine/engine.ts': 'export const en = 1;\n',
      'sandbox/app.ts': "import { en } from './engine/engine.ts';\nexport const a = en;\n",
      // The planted back-arrow: a helper under a lower floor's testing/ building the whole sandbox.
      'sandbox/engine/testing/helper.ts': "import { a } from '../../app.ts';\nexport const h = a;\n",
      'sandbox/testing/helpers.ts': "import { a } from '../app.ts';\nexport const t = a;\n",
      'sandbox/engine/engine.test.ts': "import { t } from '../testing/helpers.ts';\nexport const x = t;\n",
      // A room's drill reaching a room above its own.
      'detect/testing/matrix.ts': "import { e } from '../../examples/profiles/load.ts';\nexport const m = e;\n",
      'examples/profiles/load.ts': 'export const e = 1;\n',
    });
    expect((await violations(dir)).sort()).toEqual([
      'room-detect: detect/testing/matrix.ts → examples/profiles/load.ts',
      'sandbox-floor-engine: sandbox/engine/testing/helper.ts → sandbox/app.ts',
    ]);
  });

  it('refuses Vitest in any shipped file but the conformance suite and its runner; tests, testing/ and the bench may import it', async () => {
    const dir = tree({
      'kernel/checks.ts': "import { expect } from 'vitest';\nexport const e = expect;\n",
      'cli/commands/run.ts': "import type { Mock } from 'vitest';\nexport type M = Mock;\n",
      'conformance/suite/run.ts': "export const start = () => import('vitest/node');\n",
      'conformance/suite/conformance.suite.ts': "import { describe } from 'vitest';\nexport const d = describe;\n",
      'conformance/checks.test.ts': "import { it } from 'vitest';\nexport const i = it;\n",
      'sandbox/testing/endpoints/bodies.ts': "import { expect } from 'vitest';\nexport const b = expect;\n",
      'bench/drill.ts': "import { vi } from 'vitest';\nexport const v = vi;\n",
    });
    expect((await violations(dir)).sort()).toEqual(['no-vitest-in-shipped-code: cli/commands/run.ts → vitest', 'no-vitest-in-shipped-code: kernel/checks.ts → vitest']);
  });

  it('refuses an import circle', async () => {
    const dir = tree({
      'contract/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'contract/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    });
    const found = await violations(dir);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.startsWith('no-circular: contract/'))).toBe(true);
  });
});
