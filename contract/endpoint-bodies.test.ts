import { describe, expect, it } from 'vitest';
import { PARTNER_ENDPOINTS } from './endpoint-bodies.ts';
import { endpoints } from './endpoints.ts';
import { defaultProfile } from './profile.ts';

// lendcheck/types names each endpoint by its id in the endpoint table; the typed client calls the
// method and path written beside them. Both must be the table's own, or a typed call goes astray.
describe('lendcheck/types: PARTNER_ENDPOINTS', () => {
  const table = new Map(endpoints(defaultProfile).map((e) => [e.id, e]));
  it.each(Object.entries(PARTNER_ENDPOINTS))('%s is the endpoint table\'s method and path', (id, e) => {
    const row = table.get(id);
    expect(row, `${id} is in contract/endpoints.ts`).toBeDefined();
    expect({ method: row!.method, path: row!.path, access: row!.access }).toEqual(e);
  });
});
