import { loadProfile } from '../../contract/index.ts';
import { routePath } from '../../contract/fill-path.ts';
import type { PartResult } from '../../kernel/results.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { embeddedKeys } from '../../sandbox/auth/embedded-keys.ts';
import { runSchemathesis } from './run.ts';
import { assertSafe, resolveTarget, type ResolvedTarget } from '../target.ts';

// `lendcheck conformance --with-schemathesis`: the same target as the suite (an embedded
// sandbox of its own when there is no --base-url, rate limits off so the stateful phase is
// not starved), and the /sandbox controls only where the target answers them.

export interface WithSchemathesisOptions {
  /** The suite's target as the command resolved it (its base URL, keys and profile): taken as it is, the environment not read again. */
  target?: ResolvedTarget;
  baseUrl?: string;
  apiKey?: string;
  /** Another partner's key: with it, object_level_authorization runs (the two are peers). */
  apiKey2?: string;
  profileFile?: string;
  seed?: number;
  maxExamples?: number;
  reportDir?: string;
}

/** Whether the target has lendcheck's sandbox controls: GET /sandbox/clock answers 200 with the key. */
async function hasControls(baseUrl: string, apiKey: string): Promise<boolean> {
  try {
    const r = await fetch(`${baseUrl}${routePath('sandbox.clock')}`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(5_000) });
    await r.body?.cancel();
    return r.status === 200;
  } catch {
    return false;
  }
}

export async function withSchemathesis(o: WithSchemathesisOptions): Promise<PartResult> {
  // Of the suite's target only what Schemathesis uses, and never its --read-only: Schemathesis writes,
  // so a live key is refused here whatever the suite was allowed.
  const t = o.target;
  const target = t ? { baseUrl: t.baseUrl, apiKey: t.apiKey, profileFile: t.profileFile } : resolveTarget({ baseUrl: o.baseUrl, apiKey: o.apiKey, profileFile: o.profileFile });
  const apiKey2 = t ? t.apiKey2 : o.apiKey2;
  assertSafe(target);
  const profile = loadProfile(target.profileFile);
  if (target.baseUrl) {
    if (!target.apiKey) throw new Error('--with-schemathesis against --base-url needs --api-key (or LENDCHECK_API_KEY)');
    const controls = await hasControls(target.baseUrl, target.apiKey);
    return runSchemathesis({ baseUrl: target.baseUrl, apiKey: target.apiKey, apiKey2, profile, controls, seed: o.seed, maxExamples: o.maxExamples, reportDir: o.reportDir });
  }
  const server = await startSandboxServer({ port: 0, host: '127.0.0.1', profile, plugins: defaultPlugins({ rateLimits: false }) });
  try {
    const { main, other } = embeddedKeys(server.keys);
    return await runSchemathesis({ baseUrl: server.url, apiKey: main.key, apiKey2: other?.key, profile, controls: true, seed: o.seed, maxExamples: o.maxExamples, reportDir: o.reportDir });
  } finally {
    await server.close();
  }
}
