import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADDRESS_FORMS, defaultProfile, loadProfile, parseProfile } from '../contract/index.ts';
import { startSandboxServer } from '../sandbox/server.ts';
import { roundSizesBetween } from './orders/body-limit.ts';
import { buildOpenApi } from '../contract/openapi/document.ts';
import { detectToFile } from './cli.ts';
import { detectProfile } from './index.ts';
import { exampleProfile } from '../examples/profiles/load.ts';
import { findId } from '../conformance/body-id.ts';
import { resetUnitOf } from './market/rates.ts';
import { getOption, sameValue } from './options.ts';

// Detection's file, its budget and its readers; matrix.test.ts runs it on every example
// profile with and without the sandbox's controls.

describe('profile detect', () => {
  it('writes a loadable profile with evidence, keys and secrets redacted, and lists what it could not detect', { timeout: 60_000 }, async () => {
    const profile = exampleProfile('fintech-rest');
    const server = await startSandboxServer({ profile, controls: false, validateResponses: false });
    try {
      const out = join(mkdtempSync(join(tmpdir(), 'lc-detect-')), 'profile.json');
      const { detected } = await detectToFile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_growth' }, out);
      const text = readFileSync(out, 'utf8');
      expect(text).not.toMatch(/ck_test_[A-Za-z0-9]/);
      expect(text).not.toMatch(/whsec_[A-Za-z0-9]/);
      const loaded = loadProfile(out);
      expect(loaded.ratesPath).toBe('/market-rates');
      expect(sameValue(getOption(loaded, 'publicEnvelope./analytics/tvl'), 'bare')).toBe(true);
      expect(loaded.publicEnvelope['/markets']).toBe('data');
      const file = JSON.parse(text) as { detection: { options: Record<string, { detected: boolean; evidence?: unknown[]; reason?: string }> } };
      expect(file.detection.options.ratesPath!.evidence!.length).toBeGreaterThan(0);
      expect(file.detection.options['webhooks.afterFinalRetry']).toMatchObject({ detected: false, reason: expect.stringMatching(/chaos/) });
      // At real time, by default: the first retry is waited for 3 s only, and the reason says how to wait for it.
      for (const o of ['webhooks.successStatuses', 'webhooks.retryDelayFrom']) {
        expect(file.detection.options[o]).toMatchObject({ detected: false, reason: expect.stringMatching(/no retry came within 3000 ms: .*--retry-wait 120/) });
      }
      // No budget given: a Growth key's room raises the Starter default (budget.ts), and the file says so.
      expect(detected.requests).toBeLessThanOrEqual(detected.maxRequests);
      expect(detected.maxRequests).toBeGreaterThan(100);
      expect((JSON.parse(text) as { detection: { budgetNote?: string } }).detection.budgetNote).toMatch(/^raised from 100 to \d+: the key's X-RateLimit-Remaining/);
      expect(file.detection.options['assets.info']).toMatchObject({ detected: true });
      // Bodies the spec does not show are recorded as the target sent them, and the export uses them.
      expect(loaded.responses['POST /webhooks']?.fields).toMatchObject({ webhookId: 'string', url: 'string', events: 'array' });
      expect(loaded.responses['POST /borrow']?.fields).toMatchObject({ positionId: 'string', userId: 'string', rate: 'number' });
      expect(file.detection.options['responses.POST /webhooks']).toMatchObject({ detected: true });
      const doc = buildOpenApi(loaded) as { paths: Record<string, Record<string, { responses: Record<string, { content: { 'application/json': { schema: { properties: Record<string, unknown>; required?: string[] } } } }> }>> };
      const reg = doc.paths['/webhooks'].post.responses['200'].content['application/json'].schema;
      expect(reg.properties.webhookId).toEqual({ type: 'string', minLength: 1 });
      expect(reg.required).toEqual(['webhookId']);
    } finally {
      await server.close();
    }
  });

  it('stops at the request budget and keeps the rest at the defaults, saying why', { timeout: 60_000 }, async () => {
    const server = await startSandboxServer({ profile: exampleProfile('strict-gateway'), controls: false, validateResponses: false });
    try {
      const out = join(mkdtempSync(join(tmpdir(), 'lc-detect-')), 'profile.json');
      const { detected } = await detectToFile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_growth', maxRequests: 20 }, out);
      expect(detected.requests).toBe(20);
      const body = detected.options['limits.maxBodyBytes']!;
      expect(body).toMatchObject({ detected: false, reason: expect.stringMatching(/budget \(20\)/) });
      expect(body.value).toBe(defaultProfile.limits.maxBodyBytes);
      // The periods come with the public reads, early: late in the list, a spent budget left the
      // default periods (30d among them) asserted of a target refusing 30d (Schemathesis ST202).
      expect(detected.options['markets.periods']).toMatchObject({ detected: true });
      expect(sameValue(detected.options['markets.periods']!.value, exampleProfile('strict-gateway').markets.periods)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('can fail: reads a refused loopback URL and a target that cancels nothing, as that profile says', { timeout: 60_000 }, async () => {
    const profile = parseProfile({ webhooks: { allowLoopbackHttp: false }, lifecycle: { cancellable: [] } });
    const server = await startSandboxServer({ profile, controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale' });
      expect(d.options['webhooks.allowLoopbackHttp']).toMatchObject({ detected: true, value: false });
      expect(d.options['lifecycle.cancellable']).toMatchObject({ detected: true, value: [] });
      // The sandbox's own keys all carry a tier: without --new-key the default tier is not guessed.
      expect(d.options['limits.defaultTier']).toMatchObject({ detected: false, reason: expect.stringMatching(/--new-key/) });
    } finally {
      await server.close();
    }
  });

  it('knows one withdrawal destination form from each sample, and round body sizes', () => {
    for (const f of ADDRESS_FORMS) expect(ADDRESS_FORMS.filter((g) => new RegExp(g.pattern).test(f.sample)).map((g) => g.name)).toEqual([f.name]);
    expect(roundSizesBetween(65_536, 262_144)).toEqual([100_000, 131_072, 200_000]);
  });

  it('judges X-RateLimit-Reset by magnitude against the clock', () => {
    const now = Date.parse('2026-11-23T05:00:00Z');
    expect(resetUnitOf(12, now)).toBe('delta-seconds');
    expect(resetUnitOf(Math.ceil(now / 1000) + 12, now)).toBe('unix-seconds');
    expect(resetUnitOf(now + 12_000, now)).toBe('unix-ms');
    expect(resetUnitOf(10 ** 7, now)).toBeUndefined();
  });

  it('finds an id without lendcheck’s field names, or by the profile’s name', () => {
    expect(findId({ id: 'w1', url: 'x' })).toEqual({ field: 'id', value: 'w1' });
    expect(findId({ subscriptionId: 's1', userId: 'u' })).toEqual({ field: 'subscriptionId', value: 's1' });
    expect(findId({ data: { hook_id: 'h1' } })).toEqual({ field: 'hook_id', value: 'h1' });
    expect(findId({ ref: 'r1' }, 'ref')).toEqual({ field: 'ref', value: 'r1' });
    expect(findId({ aId: '1', bId: '2' })).toBeUndefined();
  });
});
