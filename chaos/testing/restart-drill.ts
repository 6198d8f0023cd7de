import { join } from 'node:path';
import { EVENT_TYPES, WEBHOOK_SECRET_PREFIX } from '../../contract/index.ts';
import { routePath } from '../../contract/fill-path.ts';
import { caller, KEY_A } from '../../sandbox/testing/helpers.ts';
import { freePort, spawnReceiver } from './restart-receiver.ts';
import { judgeReceiverDb, type DrillResult, type RestartRecord } from './restart-result.ts';
import { drainSender, startStream } from './restart-sender.ts';
import type { DrillOptions } from './restart-options.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// Receiver-restart drill: a real sender (the sandbox's dispatcher) delivers a continuous stream
// of triggered events to a receiver running as its own process on a fixed port with a file
// DB; mid-run the receiver is stopped (SIGKILL or SIGTERM) while the stream goes on, then
// started again on the same port and DB after a gap. When everything has drained, the
// sender's attempt log is set beside the receiver's rows (restart-reconcile.ts). The receiver
// processes are restart-receiver.ts, the stream and drain restart-sender.ts, the verdict and
// its figures restart-result.ts.

export { freePort } from './restart-receiver.ts';
export { drillFigures, type DrillResult, type RestartRecord, type StopSignal } from './restart-result.ts';
export type { DrillOptions } from './restart-options.ts';



export async function runRestartDrill(o: DrillOptions): Promise<DrillResult> {
  const log = o.log ?? (() => {});
  const key = o.apiKey ?? KEY_A;
  const call = caller(o.baseUrl);
  const db = join(o.dir, `receiver-${o.lossy ? 'lossy' : 'real'}-${Date.now()}.db`);
  const port = await freePort();

  const sub = await call('POST', routePath('webhooks.create'), { key, body: { url: `http://127.0.0.1:${port}/hook`, events: [...EVENT_TYPES] } });
  if (sub.status !== 201 || !String(sub.body.secret).startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error(`subscribe: ${sub.status} ${JSON.stringify(sub.body)}`);
  const webhookId = sub.body.webhookId as string;
  const secret = sub.body.secret as string;

  let current = spawnReceiver(o, db, port, secret, false);
  await current.waitFor(/receiving on/);
  let next = o.warm && o.stops.length ? spawnReceiver(o, db, port, secret, true) : undefined;
  if (next) await next.waitFor(/standby/);
  log(`receiver on port ${port}, db ${db}${o.lossy ? ' (LOSSY variant)' : ''}`);

  const t0 = Date.now();
  const stream = startStream(call, key, o.ratePerSec);
  const restarts: RestartRecord[] = [];
  for (const [i, signal] of o.stops.entries()) {
    await sleep(o.intervalMs);
    const stopAt = Date.now();
    current.child.kill(signal);
    const exitedCleanly = await Promise.race([current.exited.then(() => true), sleep(15_000).then(() => false)]);
    if (!exitedCleanly) {
      current.child.kill('SIGKILL');
      await current.exited;
    }
    await sleep(o.gapMs);
    if (next) {
      current = next;
      current.child.stdin!.write('start\n');
    } else current = spawnReceiver(o, db, port, secret, false);
    await current.waitFor(/receiving on/);
    const upAt = Date.now();
    const emittedWhileDown = stream.emitted.filter((e) => e.atMs >= stopAt && e.atMs <= upAt).length;
    restarts.push({ signal, downMs: upAt - stopAt, emittedWhileDown, exitedCleanly });
    log(`restart ${i + 1}: ${signal}, down ${upAt - stopAt} ms, ${emittedWhileDown} events emitted meanwhile${exitedCleanly ? '' : ', STOP HUNG (killed)'}`);
    next = o.warm && i + 1 < o.stops.length ? spawnReceiver(o, db, port, secret, true) : undefined;
    if (next) await next.waitFor(/standby/);
  }
  await sleep(o.intervalMs);
  await stream.stop();
  const streamMs = Date.now() - t0;
  log(`stream stopped: ${stream.emitted.length} events in ${streamMs} ms, ${stream.errors()} trigger errors`);

  const ids = stream.emitted.map((e) => e.eventId);
  const { final, drainMs } = await drainSender(call, key, webhookId, ids, o.drainTimeoutMs ?? 60_000);
  log(`drained in ${drainMs} ms (${ids.filter((id) => final.get(id)!.state === 'pending').length} still pending)`);

  current.child.kill('SIGTERM');
  await Promise.race([current.exited, sleep(15_000).then(() => current.child.kill('SIGKILL'))]);
  await current.exited;
  await call('DELETE', routePath('webhooks.delete', { webhookId }), { key });

  return judgeReceiverDb(db, [...final.values()], o.timeScale, { restarts, triggerErrors: stream.errors(), streamMs, drainMs });
}
