import { rateLimitPlugin, type RateLimitOptions } from './limiter/plugin.ts';
import { openApiPlugin } from './openapi/plugin.ts';
import type { SandboxPlugin } from './pipeline/plugin.ts';
import { webhooksPlugin, type WebhooksPluginOptions } from './webhooks/plugin.ts';

// The plugins a sandbox gets by default. The seam itself (what a plugin is and is given) is
// pipeline/plugin.ts, which the plugins import, so that this list can import them.

export { INTERNAL_REQUEST_ENV, isInternalRequest, type KeyInfo, type PluginRoute, type RouteCall, type SandboxContext, type SandboxPlugin } from './pipeline/plugin.ts';

export interface PluginOptions {
  /** false turns rate limiting off (e.g. for benchmarks of the core); an object tunes it. */
  rateLimits?: boolean | RateLimitOptions;
  /** false turns webhook dispatch off; an object gives the dispatcher its options (sender, retry delays). */
  webhooks?: boolean | WebhooksPluginOptions;
}

/**
 * The plugins a sandbox gets unless told otherwise: rate limits (middleware before auth)
 * webhooks (subscription routes, trigger/attempts controls, the outbox dispatcher) and the
 * sandbox's own OpenAPI document (openapi/plugin.ts).
 * With `webhooks: false` the routes stay and only dispatch is off.
 */
export function defaultPlugins(opts: PluginOptions = {}): SandboxPlugin[] {
  const plugins: SandboxPlugin[] = [];
  if (opts.rateLimits !== false) plugins.push(rateLimitPlugin(opts.rateLimits === true ? {} : opts.rateLimits));
  plugins.push(webhooksPlugin(typeof opts.webhooks === 'object' ? opts.webhooks : { dispatch: opts.webhooks !== false }));
  plugins.push(openApiPlugin());
  return plugins;
}
