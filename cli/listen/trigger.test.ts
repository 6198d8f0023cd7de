import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NoControlsError, triggerEvent } from './trigger.ts';

// trigger tells an unknown position (the control answered, with position_not_found) from a
// target that has no control at all (a bare 404): only the second is "no sandbox controls".

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function target(status: number, body: string): Promise<string> {
  server = createServer((_, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('lendcheck trigger', () => {
  it('an unknown position is named as such, not as missing controls', async () => {
    const baseUrl = await target(404, JSON.stringify({ error: { code: 'position_not_found', message: 'no position pos_nope' } }));
    const e = await triggerEvent({ baseUrl, apiKey: 'ck_test_x', type: 'position.matured', positionId: 'pos_nope' }).catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(NoControlsError);
    expect((e as Error).message).toMatch(/404 position_not_found: no position pos_nope for this key \(no position pos_nope\)/);
  });

  it('a route that is not there is a target without controls', async () => {
    const baseUrl = await target(404, JSON.stringify({ error: { code: 'not_found', message: 'no such route' } }));
    await expect(triggerEvent({ baseUrl, apiKey: 'ck_test_x', type: 'position.matured', positionId: 'pos_nope' })).rejects.toBeInstanceOf(NoControlsError);
  });
});
