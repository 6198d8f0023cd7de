// Import circles are refused by lint (npm run lint): every arrow between this project's
// modules runs one way. Type-only imports count (tsPreCompilationDeps), since a circle of
// types still ties the files' meanings together. And shipped code never reaches into a
// testing/ folder nor imports Vitest, and the rooms depend one way (ROOMS below): npm run
// lint:deps runs them all. What "shipped" means is scripts/shipped.cjs, which the build reads too.
const { COMPILED, K6_SOURCES, NOT_SHIPPED: NOT_SHIPPED_LIST, VITEST_ALLOWED } = require('./scripts/shipped.cjs');

// What each room's shipped code may import besides its own files and packages: the interface
// (contract/) at the bottom, the kernel, signing and the fault registry beside it, the recording webhook receiver on
// the kernel, the sandbox and reports on them,
// the suites above, detection on the suite's client, and the CLI and bench on top of everything.
const ROOMS = {
  contract: [],
  kernel: [],
  signing: [],
  faults: [],
  receiver: ['kernel'],
  reports: ['contract', 'kernel'],
  sandbox: ['contract', 'signing', 'faults'],
  chaos: ['contract', 'kernel', 'signing', 'faults', 'receiver', 'reports', 'sandbox'],
  conformance: ['contract', 'kernel', 'signing', 'faults', 'receiver', 'reports', 'sandbox'],
  detect: ['contract', 'kernel', 'signing', 'faults', 'receiver', 'reports', 'sandbox', 'conformance'],
};
const ALL = ['contract', 'kernel', 'signing', 'faults', 'receiver', 'reports', 'sandbox', 'chaos', 'conformance', 'detect', 'cli', 'bench', 'scenarios', 'examples', 'scripts'];
const NOT_SHIPPED = NOT_SHIPPED_LIST.map((n) => n.regex);
// The room and floor rules hold testing/ folders too (issue 49): a drill or a planted bug is code
// of its room, and an arrow from it back up is an arrow back up. Only tests and the bench are
// exempt, as they stand on top of everything they test.
const TESTS = NOT_SHIPPED_LIST.filter((n) => !n.regex.includes('testing')).map((n) => n.regex);
const escape = (p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A shipped file: under a compiled or k6 folder (or the root index.ts), and not a test of lendcheck itself.
const SHIPPED = `^(${[...COMPILED, ...K6_SOURCES].map(escape).join('|')})(/|$)`;
// Inside sandbox/, its sub-rooms (folders, and the files at its root) stand on floors, bottom to
// top: a room may import the rooms of the floors below its own and nothing beside or above it.
// The ground is what every floor speaks (an answer and the spec's error object, exact money, the
// drawn choices); then the database, the business, the one dispatch with its plugin seam, what
// plugs into it (and the node listener onto it), what reads several plugins, the default list and
// the declared types, one sandbox (app.ts), and the doors and starters on top.
const SANDBOX_FLOORS = [
  ['answer', 'money', 'choices'],
  ['store'],
  ['engine'],
  ['pipeline'],
  ['auth', 'endpoints', 'limiter', 'webhooks', 'console', 'metrics', 'openapi', 'test-delay', 'mutate', 'http'],
  ['partner-report', 'faults'],
  ['plugins', 'public-types'],
  ['app'],
  ['server', 'testcontainers'],
  ['start'],
  ['msw'],
  // The sandbox's test helpers and suites build whole sandboxes (app.ts): the top floor.
  ['testing'],
];
// A room is a folder (sandbox/engine/…) or a file at the root (sandbox/app.ts).
const sandboxRoom = (room) => `^sandbox/${escape(room)}(/|\\.ts$)`;
const sandboxRules = SANDBOX_FLOORS.flatMap((floor, i) => {
  const below = SANDBOX_FLOORS.slice(0, i).flat();
  return floor.map((room) => ({
    name: `sandbox-floor-${room}`,
    severity: 'error',
    comment: `sandbox/${room} may import only ${below.length ? below.join(', ') : 'its own files'} of sandbox/ (the floors below its own, SANDBOX_FLOORS): move what both need lower, or turn the arrow around (a seam the lower room declares and the upper fills).`,
    from: { path: sandboxRoom(room), pathNot: TESTS },
    to: { path: '^sandbox/', pathNot: [room, ...below].map(sandboxRoom) },
  }));
});
const sandboxUnplaced = {
  name: 'sandbox-floor-unplaced',
  severity: 'error',
  comment: 'Every shipped room of sandbox/ stands on a floor: add this folder (or root file) to SANDBOX_FLOORS.',
  from: { path: '^sandbox/', pathNot: [...SANDBOX_FLOORS.flat().map(sandboxRoom), ...TESTS] },
  to: { path: '^sandbox/' },
};

const roomRules = Object.entries(ROOMS).map(([room, may]) => ({
  name: `room-${room}`,
  severity: 'error',
  comment: `${room}/ may import only ${may.length ? may.join(', ') : 'its own files'} (and packages): the rooms depend one way. Move what both need lower, or turn the arrow around.`,
  from: { path: `^${room}/`, pathNot: TESTS },
  to: { path: `^(${ALL.filter((r) => r !== room && !may.includes(r)).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...roomRules,
    ...sandboxRules,
    sandboxUnplaced,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'This module is part of an import circle. Move what both sides share into a lower module that both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-testing-in-shipped-code',
      severity: 'error',
      comment:
        'Shipped code (what `npm run build` puts in dist/) never imports a testing/ folder: those hold drills and planted bugs for the tests, and the build leaves them out. Move what the shipped code needs out of testing/.',
      from: { path: SHIPPED, pathNot: NOT_SHIPPED },
      to: { path: '(^|/)testing/' },
    },
    {
      name: 'no-vitest-in-shipped-code',
      severity: 'error',
      comment: `Shipped code never imports Vitest, except the conformance suite and its runner (${VITEST_ALLOWED.join(', ')}), which run under Vitest for the user. A file that imports it to test lendcheck itself belongs in a testing/ folder (scripts/shipped.cjs says what ships).`,
      from: { path: SHIPPED, pathNot: [...NOT_SHIPPED, ...VITEST_ALLOWED.map((p) => `^${escape(p)}`)] },
      // Resolved (node_modules/vitest/…) or, where Vitest is not installed, the bare name.
      to: { path: '(^|/)node_modules/vitest/|^vitest(/|$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|lendcheck-reports|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
