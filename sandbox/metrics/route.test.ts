import { describe, expect, it } from 'vitest';
import { API_VERSION_PREFIX, defaultProfile, endpoints } from '../../contract/index.ts';
import { endpointMatcher } from './route.ts';

// The matcher is indexed for speed; this holds it to the plain rule it replaced: among every
// endpoint whose method and path pattern match, literals before parameters, then by access.
function plain(method: string, path: string, keyed: boolean): string {
  const hits = endpoints(defaultProfile)
    .map((e) => ({ e, re: new RegExp(`^${API_VERSION_PREFIX}${e.path.replace(/\{\w+\}/g, '[^/]+')}/?$`), params: (e.path.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params)
    .filter((p) => p.e.method === method && p.re.test(path));
  return (hits.find((p) => (p.e.access === 'public') !== keyed) ?? hits[0])?.e.id ?? 'unmatched';
}

describe('endpoint matcher', () => {
  it('names every contract endpoint, and odd paths, as the unindexed rule does', () => {
    const of = endpointMatcher(defaultProfile);
    const paths = endpoints(defaultProfile).flatMap((e) => {
      const p = `${API_VERSION_PREFIX}${e.path.replace(/\{\w+\}/g, 'x1')}`;
      return [[e.method, p], [e.method, `${p}/`], ['GET', p], ['POST', p], [e.method, `${p}/extra`]];
    });
    paths.push(['GET', `${API_VERSION_PREFIX}/`], ['GET', API_VERSION_PREFIX], ['GET', `${API_VERSION_PREFIX}/nothing/here`], ['DELETE', `${API_VERSION_PREFIX}/positions/x`]);
    let named = 0;
    for (const [method, path] of paths) {
      for (const keyed of [true, false]) {
        const got = of(method!, path!, keyed);
        expect(got, `${method} ${path} keyed=${keyed}`).toBe(plain(method!, path!, keyed));
        if (got !== 'unmatched') named++;
      }
    }
    expect(named).toBeGreaterThan(endpoints(defaultProfile).length);
  });
});
