#!/usr/bin/env node
// `npm run build`: dist/ from the sources, with no hand-kept file lists.
//  1. tsc compiles every shipped source folder to JS (scripts/shipped.cjs says which, and which
//     files are lendcheck's tests of itself: the same list the lint's rules come from), with
//     tsconfig.build.json's options, rewriting the relative `.ts` imports to `.js`;
//     tsconfig.types.json adds the .d.ts of the exported entries;
//  2. every other file in those folders (openapi.json, example plans, …) is copied as is;
//  3. the k6 scenarios are copied as TypeScript, because k6 runs them itself, into
//     dist/k6/ together with every file they import (followed from their relative imports),
//     kept apart from the compiled tree so no .ts sits beside a .d.ts.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import shipped from './shipped.cjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const isShipped = (rel) => !shipped.notShipped(rel);

// The tsc project of the shipped files: tsconfig.build.json's options, the list's folders.
// Written under .tmp/ (git-ignored), so tsconfig.build.json holds no second list.
const shippedTsconfig = join(root, '.tmp', 'tsconfig.shipped.json');
mkdirSync(dirname(shippedTsconfig), { recursive: true });
writeFileSync(shippedTsconfig, JSON.stringify(shipped.shippedProject(), null, 2));

rmSync(dist, { recursive: true, force: true });
for (const project of ['.tmp/tsconfig.shipped.json', 'tsconfig.types.json']) {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, project)], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}

// Code is tsc's; tests and tsconfigs are not shipped; anything else is data the code reads.
const skip = (name) => /\.(ts|js|mjs|cjs)$/.test(name) || /^tsconfig.*\.json$/.test(name) || name === 'node_modules';
function copyData(dir) {
  for (const name of readdirSync(join(root, dir))) {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) copyData(rel);
    else if (!skip(name) && isShipped(rel)) cpSync(join(root, rel), join(dist, rel));
  }
}
for (const dir of shipped.COMPILED.filter((p) => statSync(join(root, p)).isDirectory())) copyData(dir);

const k6 = join(dist, 'k6');
const seen = new Set();
function copyScript(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const target = join(k6, relative(root, file));
  mkdirSync(dirname(target), { recursive: true });
  cpSync(file, target);
  for (const m of readFileSync(file, 'utf8').matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const dep = resolve(dirname(file), m[1]);
    if (!existsSync(dep)) throw new Error(`${relative(root, file)} imports ${m[1]}, which does not exist`);
    copyScript(dep);
  }
}
function scenarios(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) scenarios(p);
    else if (name.endsWith('.ts') && isShipped(relative(root, p))) copyScript(p);
  }
}
for (const dir of shipped.K6_SOURCES) scenarios(join(root, dir));
console.log(`build: dist/ written (k6 scripts: ${seen.size} files under dist/k6/)`);
