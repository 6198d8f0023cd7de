import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from './testing/run-bin.ts';

// `lendcheck --help` and a one-line input error answer at once: the command files register their
// options only, and each imports its parts (the sandbox, Vitest, zod, undici, the reports…)
// inside its action. What a call loads is checked module by module, not by the clock, which a
// loaded CI machine would make flaky; the times are in the closing note of issue 50.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECORD = fileURLToPath(new URL('./testing/record-loads.mjs', import.meta.url));

/** The light modules --help may load: the CLI's skeleton, the option literals and a few constants. */
const ALLOWED = [
  /^cli\/bin\.js$/, /^cli\/main\.ts$/, /^cli\/commands\/[a-z0-9-]+\.ts$/, /^cli\/exit-codes\.ts$/, /^cli\/preflight\/preflight\.ts$/,
  /^kernel\/self-command\.ts$/, /^reports\/redact\.ts$/, /^contract\/constants\.ts$/, /^contract\/requirements?(-binds)?\.ts$/,
  // The zod-free route list (preflight's two reads name their endpoints by id).
  /^contract\/(fill-path|endpoint-bodies|routes)\.ts$/, /^signing\/(signature|variants)\.ts$/, /^scripts\/ensure-k6\.mjs$/,
  /^package\.json$/,
];
/** Packages: the argument parser, and tsx (with its esbuild) where the sources run unbuilt. */
const PACKAGES = new Set(['commander', 'tsx', 'esbuild', 'get-tsconfig', 'resolve-pkg-maps']);

function loads(args: string[]): Promise<{ code: number | null; files: string[] }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', RECORD, BIN, ...args], { encoding: 'utf8', timeout: 60_000 }, (err, _out, stderr) => {
      const files = [...stderr.matchAll(/^LOADED file:\/\/(.+)$/gm)].map((m) => decodeURIComponent(m[1]));
      done({ code: err ? ((err as { code?: number }).code ?? null) : 0, files });
    });
  });
}

function unexpected(files: string[]): string[] {
  return files.filter((f) => {
    const rel = f.startsWith(ROOT) ? f.slice(ROOT.length) : f;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(rel)?.[1];
    if (pkg) return !PACKAGES.has(pkg);
    return !ALLOWED.some((r) => r.test(rel));
  });
}

describe('the CLI starts without loading its parts', () => {
  it.each([
    ['--help', ['--help'], 0],
    ['gate --help', ['gate', '--help'], 0],
    ['a mistyped flag', ['gate', '--bogus'], 2],
    ['a bad choice', ['load', '--scenario', 'nope'], 2],
  ])('%s loads only the skeleton', async (_name, args, code) => {
    const r = await loads(args as string[]);
    expect(r.code).toBe(code);
    expect(r.files.length).toBeGreaterThan(3);
    expect(unexpected(r.files)).toEqual([]);
  });
});
