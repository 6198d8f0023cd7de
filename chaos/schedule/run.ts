import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultProfile, EVENT_TYPES, KEY_PREFIX, WEBHOOK_RESPONSE_DEADLINE_MS, WEBHOOK_RETRY_DELAYS_MS, webhookDeletable, UNKNOWN_SCHEME_REASON, resolveCall, type CallInput, type PartnerEndpointId, type Profile } from '../../contract/index.ts';
import { findId } from '../../contract/body-id.ts';
import { generateWebhookSecret } from '../../signing/signature.ts';
import * as results from '../../kernel/results.ts';
import { parsePlan, type PlanInput } from '../plan.ts';
import { startReceiver } from '../receiver.ts';
import { SCHEDULE_PLAN } from './plan.ts';
import { stillAwaited } from './watch.ts';
import { certainFailure } from './fail-fast.ts';
import { DEFAULT_TOLERANCE, validateAttempts, type Tolerance } from '../validate/validate.ts';
import type { AttemptRow } from '../store.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { embeddedKeys } from '../../sandbox/auth/embedded-keys.ts';
import { orderMaturity } from '../../contract/order-maturity.ts';

type PartResult = results.PartResult;

/**
 * At time scale 3600 the 1 min and 5 min retries are 17 ms and 83 ms of real time, while the
 * embedded sandbox, the receiver and whatever else runs on the machine delay exchanges by up to
 * hundreds of ms (measured on a shared 2-core box). A 1 s floor keeps that harness noise from
 * reading as schedule drift; the 2 h and 24 h retries are still held to 2 %.
 */
export const EMBEDDED_TOLERANCE: Tolerance = { pct: 2, minMs: 1000 };
type CheckResult = results.CheckResult;

export interface ScheduleOptions {
  /** Target base URL ending in /v1; without it the embedded sandbox is started. */
  baseUrl?: string;
  apiKey?: string;
  /** The target's time scale; read from its sandbox clock when it has one, else 1. */
  timeScale?: number;
  /** ck_live_ keys are refused unless this is set. */
  allowLive?: boolean;
  profile?: Profile;
  /** Default: the spec's 2 % or 50 ms against a target; 2 % or 1 s against the embedded sandbox (see EMBEDDED_TOLERANCE). */
  tolerance?: Tolerance;
  /** SQLite file for the receiver (a temp file by default, removed afterwards). */
  db?: string;
  plan?: PlanInput;
  /** Upper bound on the whole run in real ms (default: the schedule plus deadlines plus margin). */
  maxWaitMs?: number;
  /** Widen the tolerance floor by the measured event-loop delay (default: on for the embedded sandbox, which shares the process). */
  allowMeasuredNoise?: boolean;
  /** Host the receiver listens on, as the target must reach it (loopback by default). */
  receiverHost?: string;
  log?: (line: string) => void;
}

/** Calls an endpoint of the contract's table by its id (contract/call.ts): method and path from the table, under the profile. */
interface Api {
  call<Id extends PartnerEndpointId>(id: Id, input?: CallInput<Id>): Promise<{ status: number; json: any }>;
}

function api(baseUrl: string, key: string, profile: Profile): Api {
  return {
    async call(id, input = {} as CallInput<typeof id>) {
      const { params, body } = input as { params?: Record<string, string>; body?: unknown };
      const { method, path } = resolveCall(profile, id, params);
      const res = await fetch(baseUrl.replace(/\/$/, '') + path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      let json: unknown = undefined;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = text;
      }
      return { status: res.status, json };
    },
  };
}

const check = (id: string, title: string, requirements: string[], failures: string[], notes: string[] = [], skipReason?: string): CheckResult => ({
  id,
  title,
  requirements,
  status: skipReason ? 'skipped' : failures.length ? 'failed' : 'passed',
  durationMs: 0,
  message: skipReason ?? (failures.length ? failures.slice(0, 20).join('\n') : undefined),
  notes,
});

/**
 * How long one event's whole schedule may take at a time scale, from its first attempt to the
 * end of its fifth retry: every retry delay (1m, 5m, 30m, 2h, 24h) ÷ the time scale, one answer
 * window per attempt (the first and five retries; those are real seconds at any scale), and the
 * bound the tolerance allows on the latest retry. Judging earlier would miss a missing retry.
 */
export function fullScheduleMs(timeScale: number, tolerance: Tolerance): { totalMs: number; delaysMs: number; windowsMs: number; boundMs: number } {
  const delaysMs = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / timeScale;
  const windowsMs = (WEBHOOK_RETRY_DELAYS_MS.length + 1) * WEBHOOK_RESPONSE_DEADLINE_MS;
  const boundMs = Math.max((delaysMs * tolerance.pct) / 100, tolerance.minMs);
  return { totalMs: Math.ceil(delaysMs + windowsMs + boundMs), delaysMs, windowsMs, boundMs };
}

export async function runChaosSchedule(opts: ScheduleOptions = {}): Promise<PartResult> {
  const log = opts.log ?? (() => {});
  const profile = opts.profile ?? defaultProfile;
  // Every delivery is judged verified or not: an unknown scheme skips the run before any request, with the option that names it.
  if (profile.signature.scheme === null) return { part: 'chaos', name: 'webhook delivery under failure plans', status: 'skipped', skipReason: UNKNOWN_SCHEME_REASON, target: opts.baseUrl ?? 'embedded sandbox', profile: profile.name, startedAt: new Date().toISOString(), durationMs: 0, checks: [], figures: {} };
  const tempDir = opts.db ? undefined : mkdtempSync(join(tmpdir(), 'lendcheck-chaos-'));
  const dbFile = opts.db ?? join(tempDir!, 'receiver.db');
  const cleanups: Array<() => Promise<void> | void> = [];
  try {
    // 1. The target.
    let baseUrl = opts.baseUrl;
    let key = opts.apiKey ?? process.env.LENDCHECK_API_KEY;
    let timeScale = opts.timeScale;
    const embedded = !baseUrl;
    if (!baseUrl) {
      const { startSandboxServer } = await import('../../sandbox/server.ts');
      const sb = await startSandboxServer({ port: 0, timeScale: timeScale ?? 3600, profile, validateResponses: false });
      cleanups.push(() => sb.close());
      baseUrl = sb.url;
      key = embeddedKeys(sb.keys).main.key;
      timeScale = timeScale ?? 3600;
      log(`embedded sandbox at ${baseUrl}, time scale ${timeScale}`);
    }
    if (!key) throw new Error('--api-key (or LENDCHECK_API_KEY) is required with --base-url');
    if (key.startsWith(KEY_PREFIX.production) && !opts.allowLive) throw new Error(`refusing a ${KEY_PREFIX.production} key: pass --allow-live to run against production`);
    const target = api(baseUrl, key, profile);
    const clock = await target.call('sandbox.clock');
    const controls = clock.status === 200 && typeof clock.json?.timeScale === 'number';
    if (timeScale === undefined) timeScale = controls ? (clock.json.timeScale as number) : 1;
    log(`sandbox controls: ${controls ? 'yes' : 'no'}; time scale ${timeScale}`);

    // 2. The receiver, registered on the target.
    const secret = generateWebhookSecret();
    const rx = await startReceiver({ secret, db: dbFile, plan: parsePlan(opts.plan ?? SCHEDULE_PLAN), timeScale, profile, host: opts.receiverHost });
    let rxOpen = true;
    cleanups.push(() => (rxOpen ? rx.close() : undefined));
    const reg = await target.call('webhooks.create', { body: { url: rx.url, events: [...EVENT_TYPES], secret } });
    if (reg.status < 200 || reg.status >= 300) throw new Error(`POST /webhooks answered ${reg.status}: ${JSON.stringify(reg.json)?.slice(0, 300)}`);
    // The registration result is not shown in the spec: its id where the profile names it, else the one id-like field.
    const webhookId = findId(reg.json, profile.ids.webhook)?.value;
    if (webhookId && webhookDeletable(profile)) cleanups.unshift(async () => void (await target.call('webhooks.delete', { params: { webhookId } }).catch(() => undefined)));
    log(`receiver ${rx.url} registered${webhookId ? ` as ${webhookId}` : ''}`);

    // 3. Events: orders always (so events for real positions flow), sandbox triggers for every type when present.
    //    A warm-up delivery first: the first exchanges of a fresh process are slowed by module
    //    loading and JIT, which at a high time scale would read as minutes of schedule drift.
    const userId = `chaos_${randomBytes(4).toString('hex')}`;
    const orderNotes: string[] = [];
    // The first event the run causes (the warm-up trigger, else the orders): the 30 s for a first delivery run from here.
    const firstCausedAt = Date.now();
    if (controls) {
      const w = await target.call('sandbox.trigger', { body: { type: 'position.liquidated', userId } });
      const until = Date.now() + 10_000;
      while (w.status < 300 && rx.count() === 0 && Date.now() < until) await sleep(50);
      await sleep(500);
    }
    const started = Date.now();
    const positions: string[] = [];
    for (const amount of ['150', '250']) {
      const r = await target.call('lend.create', { body: { userId, asset: 'USDC', amount, maturity: orderMaturity(profile) } });
      if (r.status >= 200 && r.status < 300 && typeof r.json?.positionId === 'string') positions.push(r.json.positionId);
      else orderNotes.push(`POST /lend answered ${r.status}: ${JSON.stringify(r.json)?.slice(0, 200)}`);
    }
    const triggered: Array<{ eventId: string; type: string }> = [];
    if (controls) {
      for (const type of EVENT_TYPES) {
        const r = await target.call('sandbox.trigger', { body: { type, userId } });
        if (r.status >= 200 && r.status < 300 && typeof r.json?.eventId === 'string') triggered.push({ eventId: r.json.eventId, type });
        else orderNotes.push(`POST /sandbox/trigger ${type} answered ${r.status}`);
      }
    }
    log(`caused events: ${positions.length} lend orders, ${triggered.length} triggers`);

    // 4. Watch until every caused event's schedule is observed to its end (chaos/schedule/watch.ts):
    //    each caused event delivered; an acknowledged one showing no further attempt by when its
    //    next retry would have been due, plus the allowance; a failed one its retries made or
    //    missed; an exhausted one nothing after its fifth retry for the schedule's allowance. With
    //    controls, also until the target reports every triggered event settled. Without controls
    //    only the receiver's observations and the target's positions say so. The whole scaled
    //    schedule (every delay, an answer window per attempt, the bound) is the upper bound.
    const tolerance = opts.tolerance ?? (embedded ? EMBEDDED_TOLERANCE : DEFAULT_TOLERANCE);
    const full = fullScheduleMs(timeScale, tolerance);
    const causedAt = Date.now();
    const maxWait = Math.max(opts.maxWaitMs ?? full.totalMs + 30_000, full.totalMs);
    const allowMeasuredNoise = opts.allowMeasuredNoise ?? embedded;
    log(`watching until every caused event's schedule is observed to its end; at most the whole schedule, ${Math.round(full.totalMs / 1000)} s (retry delays ${Math.round(full.delaysMs)} ms + ${WEBHOOK_RETRY_DELAYS_MS.length + 1} answer windows ${full.windowsMs} ms + bound ${Math.round(full.boundMs)} ms)`);
    const states = new Map<string, { state: string; attempts: number }>();
    const settled = () => triggered.every((t) => states.has(t.eventId) && states.get(t.eventId)!.state !== 'pending');
    let awaited: string[] = ['nothing observed yet'];
    let certain: string | undefined;
    while (Date.now() - causedAt < maxWait) {
      // A failure already certain (nothing arrives, nothing verifies) ends the run now, with its reason.
      certain = certainFailure(rx.store.attempts(), firstCausedAt, Date.now(), profile.signature.scheme ?? undefined);
      if (certain) break;
      if (controls) {
        for (const t of triggered) {
          if (states.get(t.eventId)?.state && states.get(t.eventId)!.state !== 'pending') continue;
          const r = await target.call('sandbox.attempts', { params: { eventId: t.eventId } });
          if (r.status === 200) states.set(t.eventId, { state: r.json.state, attempts: (r.json.attempts ?? []).filter((a: { outcome: string }) => a.outcome !== 'pending').length });
        }
      }
      if (!controls || settled()) {
        const now = Date.now();
        const watched = { timeScale, tolerance, profile, allowMeasuredNoise, loopDelayMs: rx.loopDelayMs() };
        awaited = stillAwaited(rx.store.attempts(), rx.store.sessions(), watched, { eventIds: triggered.map((t) => t.eventId), pairs: [] }, now);
        // The target's positions are read only once the receiver's side is done: they add the events they imply.
        if (!awaited.length) awaited = stillAwaited(rx.store.attempts(), rx.store.sessions(), watched, { eventIds: [], pairs: await impliedEvents(target, positions, profile) }, now);
        if (!awaited.length) break;
      }
      if (Date.now() - causedAt >= full.totalMs && (!controls || settled())) break;
      await sleep(Math.min(1_000, Math.max(100, full.delaysMs / 200)));
    }
    const timedOut = controls && !settled();
    const observedToEnd = awaited.length === 0;
    if (certain) log(`stopped early after ${Math.round((Date.now() - causedAt) / 1000)} s: ${certain}`);
    else log(
      observedToEnd
        ? `schedule observed to its end after ${(Math.round((Date.now() - causedAt) / 100) / 10).toFixed(1)} s`
        : `schedule ${timedOut ? 'did not settle' : 'not observed to its end'} within the bound, after ${Math.round((Date.now() - causedAt) / 1000)} s; still awaited: ${awaited.slice(0, 5).join('; ')}`,
    );

    // 5. What the target reports for the positions it created.
    const expectedPairs = await impliedEvents(target, positions, profile);
    await rx.close();
    rxOpen = false;

    const { AttemptStore } = await import('../store.ts');
    const store = new AttemptStore(dbFile);
    const rows = store.attempts();
    const sessions = store.sessions();
    store.close();
    const result = await validateAttempts(rows, sessions, { timeScale, tolerance, profile, allowMeasuredNoise });
    result.name = 'webhook retry schedule (active run)';
    result.target = baseUrl;
    result.checks.push(...targetChecks(rows, expectedPairs, triggered, states, controls, orderNotes, timedOut));
    if (certain) result.checks.unshift(check('schedule.fail-fast', 'the run ends as soon as its failure is certain, with the reason', ['HOOK-post', 'HOOK-verify-raw'], [certain]));
    // A validation that could not observe the schedule to its end stays incomplete, never passed.
    result.status = result.checks.some((c) => c.status === 'failed') ? 'failed' : result.status === 'incomplete' ? 'incomplete' : 'passed';
    result.figures = { ...result.figures, scheduleWaitMs: full.totalMs, waitedMs: Date.now() - causedAt, observedToEnd: observedToEnd ? 'yes' : 'no', positionsCreated: positions.length, eventsTriggered: triggered.length, sandboxControls: controls ? 'yes' : 'no', runMs: Date.now() - started };
    return result;
  } finally {
    for (const c of cleanups.reverse()) await c();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

/** The events the target's own record of its positions implies: created, and matched, matured or liquidated by their state. */
async function impliedEvents(target: Api, positions: string[], profile: Profile): Promise<Array<{ subject: string; type: string }>> {
  const out: Array<{ subject: string; type: string }> = [];
  for (const id of positions) {
    const r = await target.call('position.get', { params: { positionId: id } });
    if (r.status !== 200) continue;
    out.push({ subject: id, type: 'position.created' });
    if (r.json?.matchedAt) out.push({ subject: id, type: 'position.matched' });
    if (r.json?.status === 'matured') out.push({ subject: id, type: 'position.matured' });
    if (r.json?.status === profile.lifecycle.statusAfterLiquidation) out.push({ subject: id, type: 'position.liquidated' });
  }
  return out;
}

function targetChecks(
  rows: AttemptRow[],
  expectedPairs: Array<{ subject: string; type: string }>,
  triggered: Array<{ eventId: string; type: string }>,
  states: Map<string, { state: string; attempts: number }>,
  controls: boolean,
  orderNotes: string[],
  timedOut: boolean,
): CheckResult[] {
  const out: CheckResult[] = [];
  const seenPairs = new Set(rows.filter((r) => r.sigOk).map((r) => `${r.eventType}|${r.subject}`));
  const seenIds = new Set(rows.map((r) => r.eventId));
  const missing = expectedPairs.filter((p) => !seenPairs.has(`${p.type}|${p.subject}`)).map((p) => `expected a ${p.type} delivery for ${p.subject} / received none`);
  for (const t of triggered) if (!seenIds.has(t.eventId)) missing.push(`expected a delivery of triggered event ${t.eventId} (${t.type}) / received none`);
  const caused = expectedPairs.length + triggered.length;
  out.push(
    check('schedule.events-delivered', 'every event the target reports for the positions it created (and every triggered one) was delivered at least once', ['HOOK-post', 'HOOK-event-types'], caused === 0 ? ['expected the run to cause at least one event / received none (orders and triggers failed)'] : missing, [
      `${expectedPairs.length} event(s) implied by the created positions' states, ${triggered.length} triggered`,
      ...orderNotes,
    ]),
  );
  if (!controls) {
    out.push(check('schedule.target-agrees', "the target's own record of attempts matches what the receiver saw", ['HOOK-retry-count'], [], [], 'the target has no sandbox controls (GET /sandbox/clock), so its own record of attempts cannot be read'));
    return out;
  }
  const disagreements: string[] = [];
  const notes: string[] = [];
  for (const t of triggered) {
    const s = states.get(t.eventId);
    const observed = rows.filter((r) => r.eventId === t.eventId).length;
    if (!s) {
      disagreements.push(`event ${t.eventId}: expected the target to report its attempts / received nothing`);
      continue;
    }
    if (s.state === 'pending') disagreements.push(`event ${t.eventId} (${t.type}): expected it settled within the run / received state pending${timedOut ? ' at the time bound' : ''}`);
    if (s.attempts !== observed) disagreements.push(`event ${t.eventId} (${t.type}): expected the target's ${s.attempts} recorded attempt(s) / received ${observed} at the receiver`);
    if (s.state === 'failed') notes.push(`event ${t.eventId} (${t.type}): after the fifth retry the target reports state "failed"`);
  }
  out.push(check('schedule.target-agrees', "the target's own record of attempts (GET /sandbox/events/{id}/attempts) matches what the receiver saw", ['HOOK-retry-count'], disagreements, notes));
  return out;
}
