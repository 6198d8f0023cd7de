import { describe, expect, it } from 'vitest';
import { judgeSuccess } from './assertable.ts';
import { endpoints } from './endpoints.ts';
import { hasBody } from './openapi/known.ts';
import { parseProfile } from './profile.ts';

// A 205 Reset Content carries no body, as a 204 does (RFC 9110 §15.3.6): where the spec leaves
// both the success status and the body open (cancel: "Response body: not shown"), an empty 205
// is a success, and the exported document gives it without content.

describe('an empty 205 where status and body are open', () => {
  const profile = parseProfile({ successStatus: { 'POST /positions/{positionId}/cancel': 205 } });
  const cancel = endpoints(profile).find((e) => e.id === 'position.cancel')!;

  it('is judged like an empty 204: no JSON body or Content-Type asked for', () => {
    for (const status of [204, 205]) {
      const j = judgeSuccess(profile, cancel, { status, json: undefined, text: '', contentType: '' });
      expect([status, j.failures]).toEqual([status, []]);
    }
  });

  it('is documented without content', () => {
    expect(hasBody(profile, cancel)).toBe(false);
    expect(hasBody(parseProfile({}), cancel)).toBe(true);
  });
});
