// Import circles are refused by lint (npm run lint): every arrow between this project's
// modules runs one way. Type-only imports count (tsPreCompilationDeps), since a circle of
// types still ties the files' meanings together. And shipped code never reaches into a
// testing/ folder, and the rooms depend one way (ROOMS below): npm run lint:deps runs them all.
// What each room's shipped code may import besides its own files and packages: the interface
// (contract/) at the bottom, the kernel and signing beside it, the sandbox and reports on them,
// the suites above, detection on the suite's client, and the CLI and bench on top of everything.
const ROOMS = {
  contract: [],
  kernel: [],
  signing: [],
  reports: ['contract', 'kernel'],
  sandbox: ['contract', 'signing'],
  chaos: ['contract', 'kernel', 'signing', 'reports', 'sandbox'],
  conformance: ['contract', 'kernel', 'signing', 'reports', 'sandbox', 'scripts'],
  detect: ['contract', 'kernel', 'signing', 'reports', 'sandbox', 'conformance', 'examples'],
};
const ALL = ['contract', 'kernel', 'signing', 'reports', 'sandbox', 'chaos', 'conformance', 'detect', 'cli', 'bench', 'scenarios', 'examples', 'scripts'];
const NOT_SHIPPED = ['\\.test\\.ts$', '\\.suite\\.ts$', '/testing/', 'test-helpers\\.ts$', '/fixture\\.ts$'];
const roomRules = Object.entries(ROOMS).map(([room, may]) => ({
  name: `room-${room}`,
  severity: 'error',
  comment: `${room}/ may import only ${may.length ? may.join(', ') : 'its own files'} (and packages): the rooms depend one way. Move what both need lower, or turn the arrow around.`,
  from: { path: `^${room}/`, pathNot: NOT_SHIPPED },
  to: { path: `^(${ALL.filter((r) => r !== room && !may.includes(r)).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...roomRules,
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
      from: { path: '^(index\\.ts|contract|kernel|signing|detect|sandbox|conformance|chaos|reports|cli|examples|scripts)/?', pathNot: NOT_SHIPPED },
      to: { path: '/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|lendcheck-reports|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
