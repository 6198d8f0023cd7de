import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { SandboxPlugin } from '../pipeline/plugin.ts';
import { CLIENT_SCRIPT } from './client-script.ts';
import { consoleConfig, renderConsole } from './page.ts';
import { consoleSnapshot, SnapshotError } from './snapshot.ts';

// The web console (`lendcheck sandbox` serves it at / and /console): one server-rendered page,
// a small script and echarts, read from this package's node_modules, so nothing is fetched
// from the internet. The page holds no key and no data: it reads everything through the API
// with the key the user types, and every action is a spec endpoint or a /v1/sandbox control.

const require = createRequire(import.meta.url);

/** No script, style or request from elsewhere; the page's own inline style and JSON block only. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

export const CONSOLE_PATHS = ['/', '/console'] as const;

export function consolePlugin(): SandboxPlugin {
  let page: string | undefined;
  let echarts: string | undefined;
  return {
    name: 'console',
    routes(app, ctx) {
      const html = () => {
        page ??= renderConsole(consoleConfig(ctx.profile, ctx.controls));
        return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-cache' } });
      };
      for (const p of CONSOLE_PATHS) app.get(p, html);
      // The page's one read: everything it shows, with the key the user typed (Bearer, as the API takes it).
      app.get('/console/snapshot', async (c) => {
        try {
          const body = await consoleSnapshot(ctx.fetch, c.req.header('authorization'), ctx.controls, ctx.profile.ratesPath);
          return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
        } catch (e) {
          if (e instanceof SnapshotError) return new Response(e.body, { status: e.status, headers: { 'content-type': 'application/json' } });
          throw e;
        }
      });
      app.get('/favicon.ico', () => new Response(null, { status: 204 }));
      app.get('/console/app.js', () => new Response(CLIENT_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } }));
      app.get('/console/echarts.min.js', () => {
        echarts ??= readFileSync(require.resolve('echarts/dist/echarts.min.js'), 'utf8');
        return new Response(echarts, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'max-age=3600' } });
      });
    },
  };
}
