import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../contract/openapi/document.ts';
import { EXAMPLE_PROFILES, exampleProfile } from '../../examples/profiles/load.ts';
import { caller, testSandbox } from '../testing/helpers.ts';

// The methods the exported document gives each path are the methods the sandbox serves
// there, under every profile it plays: a method the document lacks gets the profile's
// methodNotAllowed answer naming exactly the documented ones (Allow header on a 405), so
// Schemathesis' unsupported_method and allow_header_conformance checks, and a client reading
// the document, see one truth.

const sample = (path: string) => path.replace('{id}/orderbook', 'USDC/orderbook').replace(/\{\w+\}/g, 'x1');

describe('OPTIONS answers with the methods the document holds', () => {
  for (const name of ['default', ...EXAMPLE_PROFILES]) {
    it(`under ${name}`, async () => {
      const profile = exampleProfile(name);
      const controls = name === 'default';
      const sb = testSandbox({ profile, controls });
      const call = caller(sb);
      try {
        const doc = buildOpenApi(profile) as { paths: Record<string, Record<string, unknown>> };
        let checked = 0;
        for (const [path, ops] of Object.entries(doc.paths)) {
          if (!controls && path.startsWith('/sandbox')) continue;
          const documented = Object.keys(ops).map((m) => m.toUpperCase()).sort();
          const r = await call('OPTIONS', sample(path));
          expect(r.status, `${name} OPTIONS ${path}`).toBe(profile.errors.methodNotAllowed.status);
          const said = /allowed: ([A-Z, ]+)$/.exec(String(r.body?.error?.message))?.[1].split(', ').sort();
          expect(said, `${name} ${path}: ${JSON.stringify(r.body)}`).toEqual(documented);
          if (r.status === 405) expect(r.headers.get('allow')?.split(', ').sort(), `${name} ${path}`).toEqual(documented);
          checked++;
        }
        expect(checked).toBeGreaterThanOrEqual(controls ? 25 : 17);
      } finally {
        await sb.close();
      }
    });
  }
});
