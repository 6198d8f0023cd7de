import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The TypeScript examples of the partner pages, as test files: every ```ts block of README.md and
// docs/partners.md is a whole test file (imports included) that scripts/doc-snippets.test.ts
// type-checks and runs, so an example cannot drift from the package or pass when nothing ran.

/** The pages whose ```ts blocks are tests. */
export const SNIPPET_PAGES = ['README.md', 'docs/partners.md'];

/** A first line `// needs a container engine …` : type-checked always, run only with LENDCHECK_CONTAINERS=1. */
export const NEEDS_CONTAINER = /^\/\/ needs a container engine/;

export interface Snippet {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** The file name it is written under (page and line: stable while the page is unchanged above it). */
  file: string;
  needsContainer: boolean;
}

export function snippetsOf(root: string, page: string): Snippet[] {
  const text = readFileSync(join(root, page), 'utf8');
  const out: Snippet[] = [];
  for (const m of text.matchAll(/^```ts\n([\s\S]*?)^```/gm)) {
    const line = text.slice(0, m.index).split('\n').length;
    const code = m[1];
    out.push({ page, line, code, file: `${page.replace(/[^\w]+/g, '-')}-L${line}.test.ts`, needsContainer: NEEDS_CONTAINER.test(code) });
  }
  return out;
}

/**
 * The same snippet with its msw server never listening (`server.listen(` made a no-op): every
 * assertion that a request reached the sandbox must now fail. Null when it has no listen call.
 */
export function withoutListen(code: string): string | null {
  return /\bserver\.listen\(/.test(code) ? code.replace(/\bserver\.listen\(/g, 'void (') : null;
}

/** Writes the snippets under `dir` (emptied first), with the tsconfig that type-checks them as a partner's project would. */
export function writeSnippets(root: string, dir: string, snippets: { file: string; code: string }[]): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const s of snippets) writeFileSync(join(dir, s.file), s.code);
  const rel = (p: string) => join(...dir.slice(root.length + 1).split('/').map(() => '..'), p);
  // The repository's own options (its 'lendcheck-source' condition resolves `lendcheck/…` to the
  // sources through the package's exports, as a self-reference), strict, the snippets alone.
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: rel('tsconfig.json'), compilerOptions: { noEmit: true, strict: true }, include: ['*.ts'], exclude: [] }, null, 2));
  return snippets.map((s) => join(dir, s.file));
}
