// A receiver in its own process, for the SIGKILL durability test: the same startReceiver the
// CLI runs, without loading every other subcommand (which costs seconds on a loaded box).
import { startReceiver } from '../receiver.ts';

const [db, secret] = [process.argv[2], process.env.LENDCHECK_WEBHOOK_SECRET];
if (!db || !secret) throw new Error('usage: receiver-process.ts <db> (secret in LENDCHECK_WEBHOOK_SECRET)');
const rx = await startReceiver({ secret, db });
console.log(`receiving on ${rx.url}`);
