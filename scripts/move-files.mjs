#!/usr/bin/env node
// Moves files (git mv) and rewrites every relative import that names them, in the moved files
// and in every other tracked source file. Usage: node scripts/move-files.mjs OLD=NEW [OLD=NEW …]
// (paths from the repo root; a folder moves every tracked file under it). Written by hand:
// jscodeshift and ts-morph could do it, but they parse every file with a full TypeScript
// program for what is a path substitution in string literals; this stays a few lines.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
process.chdir(root);
const tracked = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const SOURCE = /\.(ts|mts|js|mjs|cjs)$/;

const moves = new Map();
for (const arg of process.argv.slice(2)) {
  const [from, to] = arg.split('=').map((p) => normalize(p).replace(/\/$/, ''));
  if (!from || !to) throw new Error(`expected OLD=NEW, got ${arg}`);
  const files = tracked.filter((f) => f === from || f.startsWith(from + '/'));
  if (!files.length) throw new Error(`${from}: no tracked file`);
  for (const f of files) moves.set(f, to + f.slice(from.length));
}

// Every string literal that is a relative specifier: from '…', import('…'), import '…',
// vi.mock('…'), new URL('…', import.meta.url), require('…').
const SPEC = /((?:from|import|require|mock)\s*\(?\s*|new URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;

const newPathOf = (f) => moves.get(f) ?? f;
let rewritten = 0;
for (const file of tracked.filter((f) => SOURCE.test(f) && existsSync(f))) {
  const text = readFileSync(file, 'utf8');
  const there = newPathOf(file);
  const out = text.replace(SPEC, (all, lead, q, spec) => {
    const target = normalize(join(dirname(file), spec));
    const dest = moves.has(target) ? moves.get(target) : target;
    if (!moves.has(target) && there === file) return all;
    let rel = relative(dirname(there), dest);
    if (!rel.startsWith('.')) rel = './' + rel;
    return `${lead}${q}${rel}${q}`;
  });
  if (out !== text) {
    writeFileSync(file, out);
    rewritten++;
  }
}
for (const [from, to] of moves) {
  mkdirSync(dirname(to), { recursive: true });
  execFileSync('git', ['mv', from, to]);
}
console.log(`moved ${moves.size} files, rewrote imports in ${rewritten}`);
