// Runs WAL checkpoints on its own thread and connection (see checkpointer.ts). Plain JS so
// it loads in a worker whether or not the parent registered a TypeScript loader.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');

const timer = setInterval(() => {
  try {
    // PASSIVE never waits for the writer or readers: it copies what it can and returns.
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, walFrames: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String(e) });
  }
}, workerData.intervalMs);

parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
