import { describe, expect, it } from 'vitest';
import { API_VERSION_PREFIX } from '../../contract/constants.ts';
import { ROUTES } from '../../contract/routes.ts';
import { CONTROLS_PREFIX, PARTNER_REPORT_PATH } from './path.ts';

// The recorder (record.ts) leaves the sandbox's controls out by their path prefix: every control of the
// route list must sit under it, and no endpoint of the interface may.
describe('the partner report recorder: the controls prefix', () => {
  it('holds every sandbox control of the route list and no other endpoint', () => {
    for (const [id, r] of Object.entries(ROUTES)) expect(`${API_VERSION_PREFIX}${r.path}`.startsWith(CONTROLS_PREFIX), id).toBe(r.access === 'sandbox');
  });

  it('puts the report itself among the controls', () => {
    expect(PARTNER_REPORT_PATH.startsWith(CONTROLS_PREFIX)).toBe(true);
    expect(PARTNER_REPORT_PATH).toBe('/v1/sandbox/partner-report');
  });
});
