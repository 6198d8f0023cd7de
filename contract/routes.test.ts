import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.ts';
import { parseProfile } from './profile.ts';
import { ROUTES } from './routes.ts';

// The zod-free route list is the endpoint table's, row for row: what the k6 scenarios, the
// console's browser script and the CLI's light paths send goes where the table says, and no
// endpoint of the table is missing from it (nor one the table does not have added).
describe('contract/routes.ts: the route list is the endpoint table', () => {
  // Every optional row served: the rates path known, the webhook list and delete served.
  const profile = parseProfile({ ratesPath: '/rates', webhooks: { listAndDelete: true } });
  const table = endpoints(profile).map((e) => [e.id, { method: e.method, path: e.path, access: e.access }] as const);

  it('holds every endpoint of the table, with its method, path and access', () => {
    expect(Object.fromEntries(table)).toEqual(ROUTES);
  });

  it('names each endpoint once', () => {
    expect(new Set(table.map(([id]) => id)).size).toBe(table.length);
  });
});
