#!/usr/bin/env node
// One entry for both layouts. In the package (`npm run build` → dist/cli/bin.js) the
// compiled main.js sits beside it and plain Node runs it. In a checkout run straight from
// the sources (`npm start`, the tests' spawned CLIs) tsx, a devDependency, loads main.ts.
import { existsSync } from 'node:fs';

// `lendcheck … | head` closes the pipe early; that is not an error.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const compiled = new URL('./main.js', import.meta.url);
let entry;
if (existsSync(compiled)) {
  entry = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  entry = await import(new URL('./main.ts', import.meta.url).href);
}
await entry.main(process.argv);
