import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProfile, routeOfRequest } from '../../contract/index.ts';
import { openApiText } from '../../contract/openapi/document.ts';
import { serveWrapped, type EmbeddedTarget } from '../embedded.ts';
import { startPrismProxy, type PrismProxy } from './proxy.ts';
import { allChecks } from '../registry.ts';
import { runChecks } from '../runner.ts';

// Checks whose requests Prism answers itself instead of forwarding: a body that is not
// JSON gets Prism's own 400 (without the target's rate-limit headers), and some fuzzed
// bodies get no answer from Prism at all. Neither says anything about the target.
const PRISM_ANSWERS_ITSELF: Record<string, string> = {
  'fuzz.bodies': 'malformed bodies: Prism answers or stalls on them itself',
  'limits.headers-everywhere': 'includes a malformed JSON body, which Prism answers itself without the rate-limit headers',
};

// The whole conformance suite through Prism 5.14.2 as a validating proxy in front of the
// sandbox, with the OpenAPI document of the profile. The suite sends bad requests on
// purpose, so request violations are expected — but each must have been refused (4xx), and
// no response may break the document.
describe('conformance suite through prism proxy', () => {
  let sandbox: EmbeddedTarget;
  let proxy: PrismProxy | undefined;
  let unavailable: string | undefined;
  let broken = false;
  const dir = mkdtempSync(join(tmpdir(), 'lendcheck-prism-'));

  beforeAll(async () => {
    // `broken` turns the market list into one that breaks the document, to show the proxy sees it.
    sandbox = await serveWrapped(async (req, next) => {
      const res = await next(req);
      if (!broken || routeOfRequest(defaultProfile, req)?.id !== 'public.markets') return res;
      return new Response(JSON.stringify({ markets: [{ id: 'USDC-30d', lendRate: '0.05' }] }), { status: 200, headers: res.headers });
    // Withdrawals complete in 1 s (the sandbox's default is 10): the hooks scenario waits for withdrawal.completed.
    }, { profile: defaultProfile, validateResponses: false, withdrawalDelaySeconds: 1 });
    const doc = join(dir, 'openapi.json');
    writeFileSync(doc, openApiText(defaultProfile));
    try {
      proxy = await startPrismProxy(doc, sandbox.url);
    } catch (e) {
      unavailable = (e as Error).message;
    }
  }, 10 * 60_000);
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes every check, with 0 response violations and every invalid request refused', { timeout: 10 * 60_000 }, async (ctx) => {
    if (unavailable) ctx.skip(`Prism cannot be installed or started here: ${unavailable}`);
    const r = await runChecks({
      baseUrl: proxy!.url, apiKey: sandbox.apiKey, apiKey2: sandbox.apiKey2, burstKey: sandbox.burstKey, keyTiers: sandbox.keyTiers,
      profile: defaultProfile, seed: 20261122,
      only: allChecks(defaultProfile).map((c) => c.id).filter((id) => !(id in PRISM_ANSWERS_ITSELF)),
    });
    expect(r.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    const seen = proxy!.observed;
    const responseViolations = seen.flatMap((o) => o.violations.filter((v) => v.location[0] !== 'request').map((v) => `${o.method} ${o.path} → ${o.status}: ${v.location.join('.')} ${v.message}`));
    const acceptedInvalid = seen.filter((o) => o.violations.some((v) => v.location[0] === 'request') && o.status < 400).map((o) => `${o.method} ${o.path} → ${o.status}: ${o.violations.map((v) => v.message).join('; ')}`);
    const requestViolations = seen.filter((o) => o.violations.some((v) => v.location[0] === 'request')).length;
    console.log(`prism proxy: ${seen.length} exchanges, ${responseViolations.length} response violations, ${requestViolations} invalid requests (all refused: ${acceptedInvalid.length === 0})`);
    expect(responseViolations).toEqual([]);
    expect(acceptedInvalid).toEqual([]);
    expect(seen.length).toBeGreaterThan(200);
  });

  it('reports a response that breaks the document', async (ctx) => {
    if (unavailable) ctx.skip(`Prism cannot be installed or started here: ${unavailable}`);
    broken = true;
    try {
      const r = await fetch(`${proxy!.url}/markets`);
      expect(r.status).toBe(200);
      const last = proxy!.observed.at(-1)!;
      expect(last.path).toBe('/markets');
      expect(last.violations.filter((v) => v.location[0] === 'response').length).toBeGreaterThan(0);
    } finally {
      broken = false;
    }
  });
});
