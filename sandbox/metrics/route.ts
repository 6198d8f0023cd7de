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
  return (method, path, keyed) => {
    const hits = patterns.filter((p) => p.e.method === method && p.re.test(path));
    // A path served both with and without a key (the shared order book) is named by whether a key came.
    const hit = hits.find((p) => (p.e.access === 'public') !== keyed) ?? hits[0];
    return hit?.e.id ?? 'unmatched';
  };
}
