import { rateLimitPlugin } from './limiter/plugin.ts';
import type { SandboxPlugin } from './plugin-types.ts';
import { webhooksPlugin } from './webhooks/plugin.ts';

// The plugins a sandbox gets by default. The seam itself (what a plugin is and is given) is
// plugin-types.ts, which the plugins import, so that this list can import them.

export type { KeyInfo, SandboxContext, SandboxEnv, SandboxPlugin } from './plugin-types.ts';

export interface PluginOptions {
  /** Turns rate limiting off, e.g. for benchmarks of the core. */
  rateLimits?: boolean;
  /** Turns webhook dispatch off. */
  webhooks?: boolean;
}

/**
 * The plugins a sandbox gets unless told otherwise: rate limits (middleware before auth)
 * and webhooks (subscription routes, trigger/attempts controls, the outbox dispatcher).
 * With `webhooks: false` the routes stay and only dispatch is off.
 */
export function defaultPlugins(opts: PluginOptions = {}): SandboxPlugin[] {
  const plugins: SandboxPlugin[] = [];
  if (opts.rateLimits !== false) plugins.push(rateLimitPlugin());
  plugins.push(webhooksPlugin({ dispatch: opts.webhooks !== false }));
  return plugins;
}
