// A receiver in its own process, for the SIGKILL durability test and the restart drill: the
// same startReceiver the CLI runs, without loading every other subcommand (which costs seconds
// on a loaded box).
//   receiver-process.ts <db> [port] [timeScale] [--plan=<file>] [--standby] [--lossy]
// --standby: load everything, print "standby", and start only when a line arrives on stdin, so a
//   drill's outage is the gap it chose rather than this process's start-up time.
// --lossy: a deliberately broken receiver (acknowledges before committing), for proving the
//   drill catches lost observations. Never the real receiver.
import { createInterface } from 'node:readline';
import { loadPlan } from '../plan.ts';
import { startReceiver } from '../receiver.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const planFile = [...flags].find((f) => f.startsWith('--plan='))?.slice('--plan='.length);
const [db, port, timeScale] = args;
const secret = process.env.LENDCHECK_WEBHOOK_SECRET;
if (!db || !secret) throw new Error('usage: receiver-process.ts <db> [port] [timeScale] [--plan=<file>] [--standby] [--lossy] (secret in LENDCHECK_WEBHOOK_SECRET)');
const start = flags.has('--lossy') ? (await import('./lossy-receiver.ts')).startLossyReceiver : startReceiver;
if (flags.has('--standby')) {
  console.log('standby');
  const lines = createInterface({ input: process.stdin });
  await new Promise((r) => lines.once('line', r));
  lines.close();
}
const rx = await start({ secret, db, port: Number(port ?? 0), timeScale: Number(timeScale ?? 1), plan: planFile ? loadPlan(planFile) : undefined });
console.log(`receiving on ${rx.url}`);
// A graceful stop closes the session, so the store shows how the process ended.
process.once('SIGTERM', () => {
  rx.close().then(() => process.exit(0), (e: unknown) => (console.error(e), process.exit(1)));
});
