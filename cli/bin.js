#!/usr/bin/env node
// The published entry point stays plain JS; tsx loads the TypeScript sources at run time
// so there is no build step between `npm ci` and `npm start`.
import { register } from 'tsx/esm/api';

// `lendcheck … | head` closes the pipe early; that is not an error.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

register();
const { main } = await import('./main.ts');
await main(process.argv);
