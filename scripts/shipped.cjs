// What ships: the one answer. `npm run build` (scripts/build.mjs writes the tsc project from
// it) and `npm run lint:deps` (.dependency-cruiser.cjs builds its rules from it) both read this
// file, so the package and the lint cannot disagree about which file is a user's and which is
// lendcheck's test of itself. CommonJS because dependency-cruiser require()s its config.

/** Top-level sources and folders compiled into dist/, each taken whole (new files need no list). */
const COMPILED = ['index.ts', 'contract', 'kernel', 'signing', 'faults', 'receiver', 'detect', 'sandbox', 'conformance', 'chaos', 'reports', 'cli', 'examples', 'scripts'];

/** Shipped too, but as TypeScript that k6 runs itself (copied with what it imports to dist/k6/). */
const K6_SOURCES = ['scenarios'];

/**
 * Never shipped, wherever they sit (globs for tsc, one regex each for dependency-cruiser):
 * lendcheck's tests of itself, their helpers, drills and planted bugs (every `testing/` folder),
 * and the benchmarks.
 */
const NOT_SHIPPED = [
  { glob: '**/*.test.ts', regex: '\\.test\\.ts$' },
  { glob: '**/*.test-d.ts', regex: '\\.test-d\\.ts$' },
  { glob: '**/testing/**', regex: '(^|/)testing/' },
  { glob: 'bench/**', regex: '^bench/' },
];

/**
 * The one shipped code allowed to import Vitest: the conformance suite and its runner, which
 * run under Vitest for the user (`lendcheck conformance`). Any other shipped file that imports
 * it is a test of lendcheck itself in the wrong place: move it under a testing/ folder.
 */
const VITEST_ALLOWED = ['conformance/suite/'];

/** Whether a file (path from the repo root) is lendcheck's own test, drill or bench, not shipped. */
const notShipped = (rel) => NOT_SHIPPED.some((n) => new RegExp(n.regex).test(rel));

/**
 * The tsc project of the shipped files, for a file one folder below the root (`.tmp/`): the
 * build's options (tsconfig.build.json), this list's folders and exclusions.
 */
const shippedProject = () => ({
  extends: '../tsconfig.build.json',
  include: COMPILED.map((p) => `../${p}`),
  exclude: ['../node_modules', '../dist', ...NOT_SHIPPED.map((n) => `../${n.glob}`)],
});

module.exports = { COMPILED, K6_SOURCES, NOT_SHIPPED, VITEST_ALLOWED, notShipped, shippedProject };
