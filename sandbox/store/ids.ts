import { randomUUID } from 'node:crypto';

// randomUUID draws from a cached entropy pool; randomBytes per id was a measurable cost.
/** `prefix_` and 24 hex digits: the one id form of positions, withdrawals and events. */
export const newId = (prefix: string): string => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
