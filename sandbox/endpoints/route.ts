import { endpointKey, endpointSuccess, renameFields, type Endpoint, type FieldNames, type Profile } from '../../contract/index.ts';
import type { Engine } from '../engine/engine.ts';
import { iso } from '../store/rows.ts';
import { viewTime } from '../engine/views.ts';
import { JSON_TYPE, type Answer } from '../answer/answer.ts';
import type { SandboxRequest } from '../pipeline/request.ts';
import type { EndpointRun } from '../pipeline/table.ts';
import type { KeyInfo } from '../pipeline/plugin.ts';
import type { Resolver } from './resolvers.ts';
import { RawJson } from './raw-json.ts';
import { cachedAnswer, type ReadCache } from '../pipeline/read-cache.ts';
import { parseWith, readJsonBody, refuseUnknownFields } from '../pipeline/validate.ts';
import { profileSuccessSchema } from '../pipeline/profile-cache.ts';

// One contract endpoint as the core serves it, in the msw/Hono order: parse (path parameters,
// query and body by the endpoint's own schemas), predicate (auth, pipeline/table.ts) and resolve (the
// endpoint's resolver), then the success answer in the profile's status and envelope.
// Only an endpoint with a body to read answers with a promise.

export interface RouteDeps {
  engine: Engine;
  profile: Profile;
  resolvers: Record<string, Resolver>;
  /** Checks every success body against the contract (tests, LENDCHECK_DEV=1). */
  validate: boolean;
  readCache?: ReadCache;
  /** Body parses a fault wraps (sandbox/faults/, `--fault`), by endpoint id; none on a clean sandbox. */
  parsers?: Readonly<Record<string, (json: unknown, parse: (json: unknown) => unknown) => unknown>>;
}

const NO_BODY = new Set([204, 205, 304]);

/** The resolve step of one endpoint: parsed input in, success answer out. */
export function endpointHandler(d: RouteDeps, e: Endpoint): EndpointRun {
  const { engine, profile } = d;
  const resolve = d.resolvers[e.id];
  if (!resolve) throw new Error(`sandbox: no resolver for endpoint ${e.id}`);
  const status = endpointSuccess(profile, e);
  const schema = profileSuccessSchema(profile, e);
  const envelope = e.access === 'public' && schema !== e.response;
  const bodyRequired = e.body !== undefined && e.id !== 'position.repay';
  const paramNames = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  // The profile's names for a body the spec does not show (contract/profile-bodies.ts), if any.
  const renames = (profile.bodies.fieldNames as FieldNames)[endpointKey(e) as keyof FieldNames];
  const names = renames && Object.keys(renames).length ? renames : undefined;
  const cacheable = d.readCache && !envelope && (e.id === 'position.get' || e.id === 'positions.list') ? d.readCache : undefined;

  const answer = (req: SandboxRequest, partner: KeyInfo | undefined, out: unknown): Answer => {
    let text: string;
    let at: number | undefined;
    if (out instanceof RawJson && !envelope && !names) {
      text = out.text;
      if (d.validate) check(JSON.parse(text));
    } else {
      const native = out instanceof RawJson ? JSON.parse(out.text) : out;
      const timestamp = iso(engine.now());
      // Checked in lendcheck-v1's names, then renamed as it leaves: the engine's answer is
      // validated under any profile, and the rename is the only step the profile adds.
      if (d.validate) check(envelope ? { data: native, timestamp } : native);
      const body = names ? renameFields(native, names) : native;
      text = JSON.stringify(envelope ? { data: body, timestamp } : body);
      at = viewTime(out);
    }
    if (cacheable && partner) cacheable.put(partner.partnerId, req.target, cachedAnswer(status, text, at));
    return { status, headers: { 'content-type': JSON_TYPE }, body: NO_BODY.has(status) ? null : text };
  };
  const check = (payload: unknown) => {
    const r = schema.safeParse(payload);
    if (!r.success) throw new Error(`response of ${e.id} breaks its schema: ${JSON.stringify(r.error.issues.slice(0, 3))}`);
  };

  return (req, values, partner) => {
    const named: Record<string, string> = {};
    for (let i = 0; i < paramNames.length; i++) named[paramNames[i]!] = values[i]!;
    const params = e.params ? (parseWith(e.params, named, 'params') as Record<string, string>) : named;
    const query = e.query ? (parseWith(e.query, req.query(), 'query') as Record<string, unknown>) : {};
    if (!e.body) return finish(req, partner, resolve(engine, { partner, params, query, body: undefined }));
    return readJsonBody(req, profile, bodyRequired).then((json) => {
      const body = json === undefined && !bodyRequired ? undefined : parseBody(json);
      return finish(req, partner, resolve(engine, { partner, params, query, body }));
    });
  };

  /** The body by the endpoint's schema. A lend whose asset has no markets gets the profile's
   *  unsupported-asset error, not the schema's complaint about it or about another field: the
   *  engine's own check (engine/core.ts), asked here only when the schema refuses, so a good
   *  body is checked once, in the engine. */
  function parseBody(json: unknown): unknown {
    refuseUnknownFields(profile, e.body!, json);
    const own = (j: unknown) => parseWith(e.body!, j ?? {}, 'body');
    const fault = d.parsers?.[e.id];
    try {
      return fault ? fault(json, own) : own(json);
    } catch (err) {
      const a = (json as { asset?: unknown } | undefined)?.asset;
      if (e.id === 'lend.create' && typeof a === 'string') engine.requireMarketAsset('asset', a);
      throw err;
    }
  }

  function finish(req: SandboxRequest, partner: KeyInfo | undefined, out: unknown): Answer | Promise<Answer> {
    // Only a fault's resolver answers with a promise; the clean path stays synchronous.
    return out instanceof Promise ? out.then((o: unknown) => answer(req, partner, o)) : answer(req, partner, out);
  }
}
