import { API_VERSION_PREFIX, endpoints, type Profile } from '../../contract/index.ts';

// Names a request by the contract's endpoint id (lend.create, rates.get…), the same names
// the k6 scenarios tag their requests with, so the sandbox's counters and a load run's
// figures line up endpoint by endpoint.

export type EndpointOf = (method: string, path: string, keyed: boolean) => string;

export function endpointMatcher(profile: Profile): EndpointOf {
  const patterns = endpoints(profile).map((e) => ({
    e,
    re: new RegExp(`^${API_VERSION_PREFIX}${e.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
    // Literal paths win over parameters (/positions/export before /positions/{id}).
    params: (e.path.match(/\{/g) ?? []).length,
  }));
  patterns.sort((a, b) => a.params - b.params);
  // Indexed by method and the path's first segment after the prefix, so a request tests the
  // few patterns that can match rather than every endpoint's (this runs on every request).
  const index = new Map<string, typeof patterns>();
  const segmentOf = (p: string, from: number) => {
    const end = p.indexOf('/', from);
    return p.slice(from, end === -1 ? undefined : end);
  };
  const head = API_VERSION_PREFIX.length + 1;
  for (const p of patterns) {
    const k = `${p.e.method} ${segmentOf(`${API_VERSION_PREFIX}${p.e.path}`, head)}`;
    // A first segment that is itself a parameter could match anything: such patterns go under '*'.
    const key = k.includes('{') ? `${p.e.method} *` : k;
    index.set(key, [...(index.get(key) ?? []), p]);
  }
  // Each list also holds its method's '*' patterns, in the global order (literals first).
  for (const [k, list] of index) {
    const wild = index.get(`${k.slice(0, k.indexOf(' '))} *`);
    if (wild && !k.endsWith(' *')) index.set(k, [...list, ...wild].sort((a, b) => a.params - b.params));
  }
  return (method, path, keyed) => {
    const candidates = index.get(`${method} ${segmentOf(path, head)}`) ?? index.get(`${method} *`) ?? [];
    const hits = candidates.filter((p) => p.re.test(path));
    // A path served both with and without a key (the shared order book) is named by whether a key came.
    const hit = hits.find((p) => (p.e.access === 'public') !== keyed) ?? hits[0];
    return hit?.e.id ?? 'unmatched';
  };
}
