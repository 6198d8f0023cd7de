import { API_VERSION_PREFIX } from '../../contract/index.ts';
import { buildOpenApi } from '../../contract/openapi/document.ts';
import { ROUTES } from '../../contract/routes.ts';
import type { RouteHandler, SandboxPlugin } from '../pipeline/plugin.ts';

// The sandbox serves its own API description, as Prism and stripe-mock do: the contract's
// OpenAPI document generated under the profile the sandbox runs with, at /v1/openapi.json
// and at the origin's /.well-known/openapi.json (both places the gate's contract step looks).
// Without controls the /sandbox operations are left out, as the routes are. Built once, on
// the first request; only servers[] is per request (the address the caller used).

/** The document paths of the sandbox's controls (the route list's `sandbox` endpoints). */
const CONTROL_PATHS: ReadonlySet<string> = new Set(Object.values(ROUTES).flatMap((r) => (r.access === 'sandbox' ? [r.path] : [])));

export const OPENAPI_PATHS = [`${API_VERSION_PREFIX}/openapi.json`, '/.well-known/openapi.json'] as const;

export function openApiPlugin(): SandboxPlugin {
  let doc: Record<string, unknown> | undefined;
  return {
    name: 'openapi',
    routes(ctx) {
      const serve: RouteHandler = ({ req }) => {
        if (!doc) {
          const built = buildOpenApi(ctx.profile) as Record<string, unknown> & { paths: Record<string, unknown> };
          if (!ctx.controls) for (const p of Object.keys(built.paths)) if (CONTROL_PATHS.has(p)) delete built.paths[p];
          doc = built;
        }
        // The node listener hands the core a placeholder origin; the Host header is the address the caller used.
        const host = req.header('host');
        const origin = host ? `http://${host}` : new URL(req.url).origin;
        return {
          status: 200,
          headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' },
          body: JSON.stringify({ ...doc, servers: [{ url: `${origin}${API_VERSION_PREFIX}`, description: `lendcheck reference sandbox (profile "${ctx.profile.name}")` }] }),
        };
      };
      return OPENAPI_PATHS.map((path) => ({ method: 'GET', path, handle: serve }));
    },
  };
}
