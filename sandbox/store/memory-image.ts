import { migrateWebhooks } from './webhook-schema.ts';
import { openDb, openImage, type Db } from './db.ts';

// A sandbox's ':memory:' database, copied from one prepared image instead of built afresh:
// creating the tables and indexes (the core's and the webhook dispatcher's, twice over, since
// both of its stores migrate) was a third of an in-process sandbox's set-up, the same work
// every time. The image is made once per process by the same openDb and migrations a file
// gets, so a copy is exactly what a fresh ':memory:' database would be; it holds no rows but
// the dispatcher's cursor row the migration writes.

let image: Buffer | undefined;

export function openMemoryDb(): Db {
  image ??= prepare();
  return openImage(image);
}

function prepare(): Buffer {
  const db = openDb(':memory:');
  try {
    migrateWebhooks(db);
    return db.serialize();
  } finally {
    db.close();
  }
}
