import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from './main.ts';

// Every `lendcheck …` example in the README and the reference pages in docs/ names a real
// subcommand with real options, so the examples cannot drift from the CLI unnoticed; and every
// relative link in them leads to a file (and heading) that exists in the repository.
//
// An example is written in the checkout form, `node cli/bin.js …` (README: "The CLI in a
// checkout"); `npx lendcheck …` is the installed package's form, and bare `lendcheck …` names a
// command in prose. All three are checked alike.

const root = join(import.meta.dirname, '..');
const docsDir = join(root, 'docs');
const examplesDir = join(root, 'examples');
const pages = [
  'README.md',
  ...readdirSync(docsDir).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`),
  // The walkthroughs beside the examples (examples/prometheus-rw/README.md) are read the same way.
  ...readdirSync(examplesDir).filter((d) => existsSync(join(examplesDir, d, 'README.md'))).sort().map((d) => `examples/${d}/README.md`),
];
const text = new Map(pages.map((p) => [p, readFileSync(join(root, p), 'utf8')]));

const CLI = /^(?:node cli\/bin\.js|npx lendcheck|lendcheck)(?=\s|$)/;
/** The words after the CLI itself: `node cli/bin.js gate --only x` → ['gate', '--only', 'x']. */
const wordsOf = (line: string): string[] => line.replace(CLI, '').trim().split(/\s+/).filter(Boolean);

interface Example { page: string; line: string; section: string; fenced: boolean }

const fence = /^\s*```(\w*)\n([\s\S]*?)^\s*```/gm;
/** The page with its fenced blocks blanked (line count kept), for headings, links and prose. */
const prose = (t: string): string => t.replace(fence, (m) => m.replace(/[^\n]/g, ''));

function sectionAt(t: string, index: number): string {
  const before = prose(t.slice(0, index)).split('\n').filter((l) => /^#{1,6} /.test(l));
  return before.at(-1)?.replace(/^#+ /, '') ?? '';
}

function examplesOf(page: string): Example[] {
  const t = text.get(page)!;
  const out: Example[] = [];
  for (const m of t.matchAll(fence)) {
    if (m[1] !== 'sh') continue;
    const section = sectionAt(t, m.index);
    // A line's leading NAME=value assignments (K6_…=… node cli/bin.js load …) are its environment.
    const lines = m[2].replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.replace(/#.*$/, '').trim().replace(/^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/, ''));
    for (const line of lines) if (CLI.test(line)) out.push({ page, line, section, fenced: true });
  }
  // Commands named inline in prose (`lendcheck sandbox --metrics`), options in a synopsis too.
  for (const m of prose(t).matchAll(/`([^`]+)`/g)) {
    const line = m[1].replace(/\s+/g, ' ').trim();
    // The CLI's bare name (`npx lendcheck`, `node cli/bin.js …`) names no command: nothing to check.
    if (CLI.test(line) && wordsOf(line).some((w) => w !== '…')) out.push({ page, line, section: sectionAt(t, m.index), fenced: false });
  }
  return out;
}

const examples = pages.flatMap(examplesOf);

function resolve(program: Command, words: string[]): { cmd: Command; rest: string[] } {
  let cmd = program;
  let i = 0;
  for (; i < words.length; i++) {
    const next = cmd.commands.find((c) => c.name() === words[i]);
    if (!next) break;
    cmd = next;
  }
  return { cmd, rest: words.slice(i) };
}

describe('README and docs/ examples', () => {
  const program = buildProgram();

  it('reads the README and every docs page', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(examples.filter((e) => e.fenced).length).toBeGreaterThan(40);
  });

  it('has an example for every subcommand (README and docs together)', () => {
    const fenced = examples.filter((e) => e.fenced);
    const named = new Set(fenced.map((e) => resolve(program, wordsOf(e.line)).cmd));
    for (const c of program.commands) {
      if (c.commands.length) for (const sub of c.commands) expect(named.has(sub), `${c.name()} ${sub.name()}`).toBe(true);
      else expect(named.has(c), c.name()).toBe(true);
    }
  });

  it('writes runnable examples in the checkout form, `npx lendcheck` only where the package is installed', () => {
    const other = examples.filter((e) => e.fenced && !e.line.startsWith('node cli/bin.js') && !/installing the package/i.test(e.section));
    expect(other.map((e) => `${e.page} (${e.section}): ${e.line}`)).toEqual([]);
  });

  it.each(examples.map((e) => [`${e.page}: ${e.line}`, e] as const))('%s', (_name, { line }) => {
    const words = wordsOf(line)
      .map((w) => w.replace(/^\[/, '').replace(/[\]…,]+$/, ''))
      .filter((w) => (w !== '>' && !w.endsWith('.json')) || w.startsWith('--'));
    const { cmd, rest } = resolve(program, words);
    // Only the program's own options (`lendcheck --version`) may stand without a subcommand.
    if (cmd === program) expect(rest.length > 0 && rest.every((w) => w.startsWith('-')), `${line}: names no subcommand`).toBe(true);
    const known = [...cmd.options.flatMap((o) => [o.long, o.short]).filter(Boolean), '--help', '-h'];
    for (const f of rest.filter((w) => w.startsWith('--'))) expect(known, `${line}: ${f}`).toContain(f.split('=')[0]);
  });
});

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
function anchorsOf(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const l of prose(readFileSync(page, 'utf8')).split('\n')) {
    const h = /^#{1,6} (.+)$/.exec(l)?.[1];
    if (!h) continue;
    const base = h.replace(/`/g, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

describe('README and docs/ links', () => {
  const links = pages.flatMap((page) =>
    [...prose(text.get(page)!).replace(/`[^`]*`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => ({ page, target: m[1] })),
  );
  const local = links.filter((l) => !/^[a-z]+:/i.test(l.target));

  it('finds the links', () => {
    expect(local.length).toBeGreaterThan(20);
  });

  it.each(local.map((l) => [`${l.page} → ${l.target}`, l] as const))('%s', (_name, { page, target }) => {
    const [path, anchor] = target.split('#');
    const file = path ? resolvePath(root, dirname(page), decodeURIComponent(path)) : join(root, page);
    // Inside the repository: a fresh clone has nothing beside it (the spec lives elsewhere).
    expect(relative(root, file).startsWith('..'), `${target} leaves the repository`).toBe(false);
    expect(existsSync(file), `${target} from ${page}`).toBe(true);
    if (anchor) {
      expect(statSync(file).isFile() && file.endsWith('.md'), `${target}: an anchor into a non-markdown file`).toBe(true);
      expect([...anchorsOf(file)], `${target} from ${page}`).toContain(anchor);
    }
  });

  // Files named in code spans (`sandbox/pipeline/stage.ts`) are not links, but a moved or renamed file
  // leaves them stale just the same: each that names a file under a tracked top-level folder
  // must exist (folders, patterns like `<run-id>` and run output are not checked).
  it('names only files that exist', () => {
    const generated = new Set(['node_modules', 'dist', 'lendcheck-reports', '.git', '.tmp', '.lendcheck']);
    const top = new Set(readdirSync(root).filter((d) => !generated.has(d) && statSync(join(root, d)).isDirectory()));
    const named = pages.flatMap((page) =>
      [...text.get(page)!.matchAll(/`([^`\s]+)`/g)]
        .map((m) => m[1].replace(/[,:;)]+$/, ''))
        .filter((p) => top.has(p.split('/')[0]) && p.includes('/') && /\.[a-z]+$/.test(p) && !/[<>*…]/.test(p))
        .map((p) => ({ page, p })),
    );
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter(({ p }) => !existsSync(join(root, p))).map(({ page, p }) => `${page}: ${p}`)).toEqual([]);
  });

  it('links every docs page from the README', () => {
    const fromReadme = new Set(local.filter((l) => l.page === 'README.md').map((l) => l.target.split('#')[0]));
    for (const p of pages.filter((p) => p.startsWith('docs/'))) expect(fromReadme, p).toContain(p);
  });
});
