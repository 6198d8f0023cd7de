import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ROUTES } from '../../contract/routes.ts';
import type { Answer } from '../answer/answer.ts';
import type { RouteHandler, SandboxPlugin } from '../pipeline/plugin.ts';
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
    routes(ctx) {
      const html: RouteHandler = () => {
        page ??= renderConsole(consoleConfig(ctx.profile, ctx.controls));
        return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-cache' }, body: page };
      };
      const script = (body: string, cache: string): Answer => ({ status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': cache }, body });
      return [
        ...CONSOLE_PATHS.map((path) => ({ method: 'GET', path, handle: html })),
        // The page's one read: everything it shows, with the key the user typed (Bearer, as the API takes it).
        {
          method: 'GET',
          path: '/console/snapshot',
          handle: async ({ req }): Promise<Answer> => {
            try {
              const body = await consoleSnapshot(ctx.fetch, req.header('authorization'), ctx.controls, ctx.profile.ratesPath ?? ROUTES['rates.get'].path);
              return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(body) };
            } catch (e) {
              if (e instanceof SnapshotError) return { status: e.status, headers: { 'content-type': 'application/json' }, body: e.body };
              throw e;
            }
          },
        },
        { method: 'GET', path: '/favicon.ico', handle: () => ({ status: 204, headers: {}, body: null }) },
        { method: 'GET', path: '/console/app.js', handle: () => script(CLIENT_SCRIPT, 'no-cache') },
        {
          method: 'GET',
          path: '/console/echarts.min.js',
          handle: () => script((echarts ??= readFileSync(require.resolve('echarts/dist/echarts.min.js'), 'utf8')), 'max-age=3600'),
        },
      ];
    },
  };
}
