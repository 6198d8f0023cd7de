// The route table: every route's path compiled once into segment lists, matched by method
// and segment count, literal segments before parameters. A path it does not hold (a
// trailing slash, an empty segment, an unknown route) matches nothing; `allowed` names the
// methods a path does have, for the 405 and its Allow header.
// Parameter values pass through `decode` (the sandbox's tolerant percent-decoding,
// sandbox/pipeline/url.ts decodeParam; kept as they came by default). One router for every
// door that must know which endpoint a request is for: the sandbox's table (its server),
// and route-of.ts over the contract's table (proxies and mutants in front of a target).
// Segments are compared as strings, no regular expression: a path that is not the
// template's shape cannot match by accident.

export interface RouteEntry<T> {
  method: string;
  /** The full path with `{name}` parameters, e.g. /v1/positions/{positionId}. */
  path: string;
  value: T;
}

export interface RouteHit<T> {
  value: T;
  /** Parameter values in path order. */
  params: string[];
}

interface Compiled<T> {
  method: string;
  /** A literal per segment, or null for a parameter. */
  segments: (string | null)[];
  literals: number;
  value: T;
}

export interface Router<T> {
  match(method: string, path: string): RouteHit<T> | undefined;
  /** The methods routed at `path` (for a 405), in the order they were entered. */
  allowed(path: string): string[];
}

export function compileRouter<T>(entries: RouteEntry<T>[], decode: (segment: string) => string = (x) => x): Router<T> {
  const table = new Map<string, Compiled<T>[]>();
  const all: Compiled<T>[] = [];
  for (const e of entries) {
    const segments = e.path.split('/').slice(1).map((s) => (s.startsWith('{') && s.endsWith('}') ? null : s));
    const c = { method: e.method, segments, literals: segments.filter((s) => s !== null).length, value: e.value };
    all.push(c);
    const key = `${e.method} ${segments.length}`;
    const list = table.get(key) ?? [];
    list.push(c);
    // Most literal first: /markets/rates before /markets/{asset}.
    list.sort((a, b) => b.literals - a.literals);
    table.set(key, list);
  }
  const fits = (r: Compiled<T>, parts: string[], params: string[] | undefined): boolean => {
    if (r.segments.length !== parts.length - 1) return false;
    for (let i = 0; i < r.segments.length; i++) {
      const seg = r.segments[i];
      const part = parts[i + 1]!;
      if (seg === null) {
        if (part === '') return false;
        params?.push(decode(part));
      } else if (seg !== part) return false;
    }
    return true;
  };
  return {
    match(method, path) {
      if (path.charCodeAt(0) !== 47) return undefined;
      const parts = path.split('/');
      const list = table.get(`${method} ${parts.length - 1}`);
      if (!list) return undefined;
      for (const r of list) {
        const params: string[] = [];
        if (fits(r, parts, params)) return { value: r.value, params };
      }
      return undefined;
    },
    allowed(path) {
      if (path.charCodeAt(0) !== 47) return [];
      const parts = path.split('/');
      // A set: the shared order-book path is two endpoints with one method.
      return [...new Set(all.filter((r) => fits(r, parts, undefined)).map((r) => r.method))];
    },
  };
}
