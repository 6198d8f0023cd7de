import { isAckStatus } from '../../contract/index.ts';
import { json } from '../answer/answer.ts';
import type { SandboxContext, SandboxPlugin } from '../pipeline/plugin.ts';
import type { Sender } from '../webhooks/sender.ts';
import { selectChecks } from './checks/index.ts';
import { lastDeliveryMark, recordedDeliveries } from './deliveries.ts';
import { fetchSender, sendProbe, type ProbeTarget } from './probe.ts';
import { PARTNER_REPORT_PATH, Recorder } from './record.ts';
import { buildReport } from './report.ts';
import type { DeliveryObservation, Exchange, PartnerReport } from './types.ts';

// The partner report as a sandbox plugin, so every door that builds a sandbox (msw handlers,
// startSandbox, the CLI's server, the container) gets it the same way: a stage that records
// each exchange, a probe of each new subscription, and the report, read in process
// (`report()`, Sandbox.partnerReport) or over HTTP at /v1/sandbox/partner-report.

export { PARTNER_REPORT_PATH };

export interface PartnerReportOptions {
  /** Check names to leave out (checks/index.ts). */
  skip?: string[];
  /** Send each subscribed receiver one mis-signed delivery, once it has answered a real one,
   *  and expect 401 (default true). */
  probe?: boolean;
  /** How the probe is sent; global fetch by default (msw intercepts it). A door that delivers
   *  webhooks another way passes the same sender it gives the dispatcher. */
  send?: Sender;
  /** Ms on the clock the rate limiter runs on (wall time by default); a door whose limiter
   *  runs on its test clock passes that clock, so "waited until X-RateLimit-Reset" is judged on it. */
  now?: () => number;
}

export interface PartnerReportPlugin extends SandboxPlugin {
  /** The report so far, once in-flight records and probes have settled; `partner` narrows it to one partner's findings. */
  report(partner?: string): Promise<PartnerReport>;
  /** Forgets what was recorded (a new test starts clean on a shared sandbox). */
  reset(): void;
}

export function partnerReportPlugin(opts: PartnerReportOptions = {}): PartnerReportPlugin {
  const checks = selectChecks(opts.skip);
  const send = opts.send ?? fetchSender;
  const probes: DeliveryObservation[] = [];
  const abort = new AbortController();
  let recorder: Recorder | undefined;
  let context: SandboxContext | undefined;
  /** Deliveries up to this id predate the last reset. */
  let mark = 0;

  /** Subscriptions made, by URL, not yet probed. */
  const unprobed = new Map<string, ProbeTarget>();
  const noteSubscription = (e: Exchange) => {
    if (opts.probe === false || !e.subscription || e.status >= 300 || !/^https?:\/\//i.test(e.subscription.url)) return;
    unprobed.set(e.subscription.url, { ...e.subscription, partner: e.partner ?? '' });
  };
  // A receiver is probed once it has answered a real delivery: by then the test has wired its
  // handler (a probe sent at subscription time could arrive before it is, and be misjudged).
  const probeAnswered = async (ctx: SandboxContext, deliveries: readonly DeliveryObservation[]) => {
    const due = [...unprobed.values()].filter((t) => deliveries.some((d) => d.url === t.url && d.status !== null));
    await Promise.all(
      due.map(async (t) => {
        unprobed.delete(t.url);
        const d = await sendProbe(t, { send, profile: ctx.profile, clock: ctx.clock, signal: abort.signal }).catch(() => undefined);
        if (d) probes.push(d);
      }),
    );
  };

  const plugin: PartnerReportPlugin = {
    name: 'partner-report',
    stage(ctx) {
      context = ctx;
      recorder = new Recorder(ctx, noteSubscription, opts.now);
      return recorder.stage;
    },
    routes(ctx) {
      if (!ctx.controls) return [];
      // The caller's key, when it gives one, narrows the report to its partner (found by the caller stage).
      return [
        { method: 'GET', path: PARTNER_REPORT_PATH, handle: async ({ req }) => json(await plugin.report(req.partner?.partnerId)) },
        {
          method: 'DELETE',
          path: PARTNER_REPORT_PATH,
          handle: () => {
            plugin.reset();
            return { status: 204, headers: {}, body: null };
          },
        },
      ];
    },
    async report(partner) {
      if (!recorder || !context) throw new Error('partner report: the plugin has not been given a sandbox (its stage was never built)');
      await recorder.settled();
      const ctx = context;
      const delivered = recordedDeliveries(ctx.db, mark);
      await probeAnswered(ctx, delivered);
      const observed = {
        exchanges: recorder.exchanges,
        deliveries: [...delivered, ...probes],
        isAck: (s: number | null) => isAckStatus(ctx.profile, s),
      };
      return buildReport(checks, observed, recorder.dropped, partner);
    },
    reset() {
      recorder?.clear();
      probes.length = 0;
      unprobed.clear();
      if (context) mark = lastDeliveryMark(context.db);
    },
    stop() {
      abort.abort();
    },
  };
  return plugin;
}
