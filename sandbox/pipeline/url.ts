// The request target as the pipeline reads it, decoded by the platform (decodeURI,
// decodeURIComponent, URLSearchParams) in the ways the sandbox always answered (when
// hono/utils/url did it):
//  - the path is cut at `?` or `#` and decoded with decodeURI, which keeps reserved escapes
//    (%2F stays %2F, so an encoded slash never splits a segment); %25 stays %25 until a path
//    parameter is decoded (router.ts, decodeParam), so "%2541" is never read as "A";
//  - a malformed escape (%zz, a lone %, bytes that are not UTF-8) is left as it came while
//    the rest is decoded: the route or its schema then refuses it with a 4xx, never a 500;
//  - the query string is URLSearchParams' (+ is a space, escapes decoded, malformed ones
//    kept); a repeated parameter keeps its first value and a nameless one is dropped. One
//    difference from hono, by the WHATWG rule: escaped bytes that are not UTF-8 become U+FFFD
//    in a query value (hono kept the escapes); either way the value's schema refuses it.

/** Applies `decode`, or on a malformed escape decodes each run of escapes that can be. */
function tolerant(s: string, decode: (s: string) => string): string {
  try {
    return decode(s);
  } catch {
    return s.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decode(run);
      } catch {
        return run;
      }
    });
  }
}

const keepPercent = (s: string) => decodeURI(s.includes('%25') ? s.replace(/%25/g, '%2525') : s);

/** The decoded path of a request target (`/v1/x?y` or a whole URL). */
export function pathOf(url: string): string {
  let start = 0;
  if (url.charCodeAt(0) !== 47) start = url.indexOf('/', url.indexOf(':') + 3);
  if (start === -1) return '/';
  let i = start;
  let escaped = false;
  for (; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 || c === 35) break;
    if (c === 37) escaped = true;
  }
  const path = url.slice(start, i);
  return escaped ? tolerant(path, keepPercent) : path;
}

/** The raw target (path and query, no fragment) of a whole URL. */
export function targetOf(url: string): string {
  if (url.charCodeAt(0) === 47) return url;
  const start = url.indexOf('/', url.indexOf(':') + 3);
  if (start === -1) return '/';
  const hash = url.indexOf('#', start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}

/** A path parameter's value, fully decoded (%2F is a slash here). */
export const decodeParam = (s: string): string => (s.includes('%') ? tolerant(s, decodeURIComponent) : s);

const EMPTY: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>);

/** The query string's parameters by name, first value of a repeated one. */
export function queryOf(url: string): Record<string, string> {
  const q = url.indexOf('?');
  if (q === -1) return EMPTY;
  const hash = url.indexOf('#', q);
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(hash === -1 ? url.slice(q + 1) : url.slice(q + 1, hash))) {
    if (k !== '' && !(k in out)) out[k] = v;
  }
  return out;
}
