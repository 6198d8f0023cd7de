import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The config scripts/doc-snippets.test.ts runs the extracted snippets with: only the folder it
// names (DOC_SNIPPETS_DIR), and every `lendcheck/…` entry resolved to its sources through the
// package's own exports ('lendcheck-source'), so the snippets import exactly what a partner does.
const root = fileURLToPath(new URL('../..', import.meta.url));
const exportsOf = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, string | Record<string, string>> }).exports;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const alias = Object.entries(exportsOf)
  .filter(([, v]) => typeof v === 'object' && v['lendcheck-source'])
  .map(([k, v]) => ({ find: new RegExp(`^${escape(`lendcheck${k.slice(1)}`)}$`), replacement: `${root}${(v as Record<string, string>)['lendcheck-source'].slice(2)}` }));

export default defineConfig({
  resolve: { alias },
  test: {
    root: process.env.DOC_SNIPPETS_DIR,
    include: ['*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
