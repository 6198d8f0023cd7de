// Which open databases already hold the whole schema (copies of the prepared in-memory image,
// store/memory-image.ts), so the migrations skip them. A module of its own, importing nothing:
// webhook-schema.ts reads it without pulling the store (and the engine behind it) into the
// package's declared types.

const whole = new WeakSet<object>();

export function markSchemaWhole(db: object): void {
  whole.add(db);
}

export function schemaIsWhole(db: object): boolean {
  return whole.has(db);
}
