#!/usr/bin/env node
// Rewrites contract/spec-not-shown.ts from the spec's "not shown" lines.
//   node scripts/spec-not-shown.mjs [path/to/partner-interface.md]   (default: ../shared/spec/…)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const spec = process.argv[2] ?? `${root}../shared/spec/partner-interface.md`;
const lines = readFileSync(spec, 'utf8').split('\n').filter((l) => l.includes('not shown'));
const head = readFileSync(`${root}contract/spec-not-shown.ts`, 'utf8').split('export const')[0];
writeFileSync(`${root}contract/spec-not-shown.ts`, `${head}export const SPEC_NOT_SHOWN_LINES: readonly string[] = [\n${lines.map((l) => `  ${JSON.stringify(l)},\n`).join('')}];\n`);
console.log(`contract/spec-not-shown.ts: ${lines.length} lines from ${spec}`);
