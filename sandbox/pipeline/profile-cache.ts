import type { z } from 'zod';
import { endpoints, successSchema, type Endpoint, type Profile } from '../../contract/index.ts';

// What a profile compiles to is the same for every sandbox built on it: the endpoint table
// (its zod schemas, the rate bound applied) and each endpoint's success schema. Built once per
// profile object and shared, so a sandbox per test pays only for what is its own (database,
// engine, route closures); building them was a third of an in-process sandbox's set-up
// (bench/partner-ways.ts). A profile is a value: nothing changes one after it is loaded.

interface Compiled {
  endpoints: readonly Endpoint[];
  success: Map<string, z.ZodType>;
}

const compiled = new WeakMap<Profile, Compiled>();

function of(profile: Profile): Compiled {
  let c = compiled.get(profile);
  if (!c) {
    c = { endpoints: Object.freeze(endpoints(profile)), success: new Map() };
    compiled.set(profile, c);
  }
  return c;
}

/** contract endpoints(profile), shared by every sandbox on this profile object. */
export function profileEndpoints(profile: Profile): readonly Endpoint[] {
  return of(profile).endpoints;
}

/** contract successSchema(profile, e), shared likewise. */
export function profileSuccessSchema(profile: Profile, e: Endpoint): z.ZodType {
  const c = of(profile);
  let s = c.success.get(e.id);
  if (!s) {
    s = successSchema(profile, e);
    c.success.set(e.id, s);
  }
  return s;
}
