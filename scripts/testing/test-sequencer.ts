import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Longest files first, by the durations a whole run measured (scripts/testing/test-durations.json,
// written by scripts/testing/test-order.mjs). Vitest orders by its own cache of durations, which a fresh
// clone (CI) does not have: it then starts the largest files first, and a long file whose source
// is short (a matrix of spawned runs) started last, alone, lengthened the run by minutes.
// Files not listed run after the listed ones, larger first; the projects' groupOrder still holds.
const DURATIONS = JSON.parse(readFileSync(new URL('./test-durations.json', import.meta.url), 'utf8')) as Record<string, number>;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = new Map(base.map((f, i) => [f, i]));
    const seconds = (f: TestSpecification) => DURATIONS[relative(f.project.config.root, f.moduleId).split('\\').join('/')] ?? 0;
    const sorted = [...base].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      return seconds(b) - seconds(a) || rank.get(a)! - rank.get(b)!;
    });
    if (process.env.LENDCHECK_TEST_ORDER) console.log(sorted.map((f) => `${seconds(f)} s  ${relative(f.project.config.root, f.moduleId)}`).join('\n'));
    return sorted;
  }
}
