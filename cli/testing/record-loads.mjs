// `node --import ./record-loads.mjs …`: writes every file module the process loads to stderr,
// one `LOADED <url>` line each (cli/startup.test.ts reads what --help loads).
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function load(url, ctx, next) { if (url.startsWith('file:')) process.stderr.write('LOADED ' + url + '\\n'); return next(url, ctx); }`),
  import.meta.url,
);
