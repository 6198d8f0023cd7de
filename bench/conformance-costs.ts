// Writes conformance/budget/costs-table.ts (requests per check, what the budget's opening estimate
// sums) from the conformance.json of a whole default run: run the suite against a target without
// controls and with rate limits on (../shared/tools/as-a-user.sh does), then
//   node --import tsx bench/conformance-costs.ts <report-dir>/conformance.json
// It prints requests per family too, for BENCHMARKS.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = process.argv[2];
if (!file) throw new Error('usage: bench/conformance-costs.ts <conformance.json>');
const doc = JSON.parse(readFileSync(file, 'utf8')) as { part?: { checks: Array<{ id: string; requests?: number }> }; checks?: Array<{ id: string; requests?: number }> };
const checks = doc.part?.checks ?? doc.checks ?? [];
const requests = Object.fromEntries(checks.filter((c) => typeof c.requests === 'number').map((c) => [c.id, c.requests!]));
if (!Object.keys(requests).length) throw new Error(`${file} records no requests per check (a run before the budget?)`);
const body = Object.entries(requests).map(([id, n]) => `  '${id}': ${n},`).join('\n');
writeFileSync(
  fileURLToPath(new URL('../conformance/budget/costs-table.ts', import.meta.url)),
  `// Written by bench/conformance-costs.ts from a default run without controls, rate limits on\n// (../shared/tools/as-a-user.sh): requests per check. Do not edit by hand; measure again.\nexport const MEASURED: Readonly<Record<string, number>> = {\n${body}\n};\n`,
);
const families = new Map<string, number>();
for (const [id, n] of Object.entries(requests)) families.set(id.split('.')[0]!, (families.get(id.split('.')[0]!) ?? 0) + n);
console.log([...families].map(([f, n]) => `${f}: ${n}`).join('\n'));
console.log(`total: ${Object.values(requests).reduce((a, b) => a + b, 0)}`);
