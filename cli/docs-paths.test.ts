import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Users' docs name only what users have: no path into the developers' shared folder
// (../shared), no absolute path of one machine, and commands in the form that works in a
// checkout (`node cli/bin.js …`, not a bare `lendcheck …` line that ends in "not found").

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function markdown(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules' || n.startsWith('.') || n === 'lendcheck-reports') return [];
    return statSync(p).isDirectory() ? markdown(p) : n.endsWith('.md') ? [p] : [];
  });
}

const DOCS = ['README.md', 'BENCHMARKS.md', ...markdown(join(ROOT, 'docs')).map((p) => relative(ROOT, p)), ...markdown(join(ROOT, 'examples')).map((p) => relative(ROOT, p))];
const FORBIDDEN: Array<[string, RegExp]> = [
  ['a path into the developers\' shared folder', /\.\.\/shared\b/],
  ['an absolute path of one machine', /(^|[\s(`'"=])\/(work|home|Users|root|mnt|srv)\/[\w.-]/m],
  ['a temp file of one machine', /(^|[\s(`'"=])\/tmp\/[\w.-]+\/[\w.-]/m],
];

describe('users\' docs', () => {
  it('are found', () => expect(DOCS.length).toBeGreaterThan(8));
  for (const file of DOCS) {
    it(`${file} names no path only the developers have`, () => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const found = text.split('\n').flatMap((line, i) => FORBIDDEN.filter(([, re]) => re.test(line)).map(([what]) => `${file}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`));
      expect(found).toEqual([]);
    });
  }
  it('show shell commands in the form that works in a checkout', () => {
    const bare = DOCS.flatMap((file) => {
      const blocks = readFileSync(join(ROOT, file), 'utf8').match(/```(sh|bash|shell)\n[\s\S]*?```/g) ?? [];
      return blocks.flatMap((b) => b.split('\n').filter((l) => /^\s*lendcheck\s/.test(l)).map((l) => `${file}: ${l.trim()}`));
    });
    expect(bare).toEqual([]);
  });
});
