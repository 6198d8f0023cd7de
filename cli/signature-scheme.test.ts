import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfile, SIGNATURE_SCHEME_NAMES } from '../contract/index.ts';
import { InputError } from './exit-codes.ts';
import { profileFileWithScheme, signatureSchemeOption } from './signature-scheme.ts';

describe('--signature-scheme', () => {
  it('takes every variant name, and refuses a bad one in one line naming the closest', () => {
    for (const n of SIGNATURE_SCHEME_NAMES) expect(signatureSchemeOption(n)).toBe(n);
    let err: unknown;
    try {
      signatureSchemeOption('hmac-sha256-base46-prefixed');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/^--signature-scheme: unknown scheme "hmac-sha256-base46-prefixed": did you mean hmac-sha256-base64-prefixed\?/);
    expect((err as Error).message).not.toContain('\n');
  });

  it('writes the profile file with the scheme over its own, keeping the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lendcheck-scheme-'));
    const given = join(dir, 'p.json');
    writeFileSync(given, JSON.stringify({ name: 'mine', signature: { scheme: null, toleranceSeconds: 60 } }));
    const out = profileFileWithScheme('hmac-sha1-hex-v1', given, join(dir, 'reports'));
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ name: 'mine', signature: { scheme: 'hmac-sha1-hex-v1', toleranceSeconds: 60 } });
    expect(loadProfile(out).signature).toEqual({ scheme: 'hmac-sha1-hex-v1', toleranceSeconds: 60 });
    expect(loadProfile(profileFileWithScheme('standard-webhooks', undefined, dir)).signature.scheme).toBe('standard-webhooks');
  });
});
