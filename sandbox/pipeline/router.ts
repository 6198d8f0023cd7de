import { tryDecodeURIComponent } from 'hono/utils/url';

// The lane's route table: the contract's paths compiled once into segment lists, matched
// by method and segment count, literal segments before parameters (as metrics/route.ts
// names endpoints). A path the table does not hold (a trailing slash, an empty segment, an
// unknown route) is not the lane's: Hono answers it, with its 404 and 405.
// Parameter values are percent-decoded as Hono's c.req.param() decodes them.

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
  /** A literal per segment, or null for a parameter. */
  segments: (string | null)[];
  literals: number;
  value: T;
}

export type Router<T> = (method: string, path: string) => RouteHit<T> | undefined;

export function compileRouter<T>(entries: RouteEntry<T>[]): Router<T> {
  const table = new Map<string, Compiled<T>[]>();
  for (const e of entries) {
    const segments = e.path.split('/').slice(1).map((s) => (/^\{\w+\}$/.test(s) ? null : s));
    const key = `${e.method} ${segments.length}`;
    const list = table.get(key) ?? [];
    list.push({ segments, literals: segments.filter((s) => s !== null).length, value: e.value });
    // Most literal first: /markets/rates before /markets/{asset}.
    list.sort((a, b) => b.literals - a.literals);
    table.set(key, list);
  }
  return (method, path) => {
    if (path.charCodeAt(0) !== 47) return undefined;
    const parts = path.split('/');
    const list = table.get(`${method} ${parts.length - 1}`);
    if (!list) return undefined;
    next: for (const r of list) {
      const params: string[] = [];
      for (let i = 0; i < r.segments.length; i++) {
        const seg = r.segments[i];
        const part = parts[i + 1]!;
        if (seg === null) {
          if (part === '') continue next;
          params.push(tryDecodeURIComponent(part));
        } else if (seg !== part) continue next;
      }
      return { value: r.value, params };
    }
    return undefined;
  };
}
