import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { importPeer, isMissingPackage, MissingPeerError, requirePeer } from './optional-peer.ts';

// What a user without an optional peer reads: one line naming the package to install, and only
// when that package itself is missing (an error inside an installed one passes through as it is).
const NONE = 'lendcheck-no-such-package';

describe('optional peers', () => {
  it('name the missing package in one line, for import and require', async () => {
    const e = await importPeer(NONE, 'the conformance suite', () => import(NONE)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MissingPeerError);
    expect((e as Error).message).toBe(`the conformance suite needs ${NONE}, which lendcheck leaves optional: install it beside lendcheck (npm i -D ${NONE})`);
    expect(() => requirePeer(NONE, "the report's charts", () => createRequire(import.meta.url)(NONE))).toThrow(MissingPeerError);
  });

  it('load an installed one, and let other errors through', async () => {
    expect(typeof (await importPeer('zod', 'x', () => import('zod'))).z.object).toBe('function');
    const inner = Object.assign(new Error("Cannot find module './chunk.js' imported from zod"), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(isMissingPackage(inner, 'zod')).toBe(false);
    await expect(importPeer('zod', 'x', () => Promise.reject(inner))).rejects.toBe(inner);
  });
});
