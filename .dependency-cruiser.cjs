// Import circles are refused by lint (npm run lint): every arrow between this project's
// modules runs one way. Type-only imports count (tsPreCompilationDeps), since a circle of
// types still ties the files' meanings together. And shipped code never reaches into a
// testing/ folder (npm run lint:deps runs both rules).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
      from: { path: '^(index\\.ts|contract|kernel|signing|detect|sandbox|conformance|chaos|reports|cli|examples|scripts)/?', pathNot: ['\\.test\\.ts$', '\\.suite\\.ts$', '/testing/', 'test-helpers\\.ts$', '/fixture\\.ts$'] },
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
