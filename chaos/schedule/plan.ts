import type { PlanInput } from '../plan.ts';

// The plan of the active run. position.matched is failed on every attempt, each time in a
// different way, so its deliveries exhaust the five retries; the other types see one fault
// of each remaining kind and are then acknowledged, which exercises "no attempt after a
// success". Faults that hold the connection (timeout, late-200) cost one real 5 s deadline.
export const SCHEDULE_PLAN: PlanInput = {
  name: 'exhaust position.matched; one fault then success elsewhere',
  seed: 7,
  rules: [
    { name: 'matched #1: 503', events: ['position.matched'], attempts: [1], fault: 'status', config: { status: 503 } },
    { name: 'matched #2: reset', events: ['position.matched'], attempts: [2], fault: 'reset' },
    { name: 'matched #3: close', events: ['position.matched'], attempts: [3], fault: 'close' },
    { name: 'matched #4: 500', events: ['position.matched'], attempts: [4], fault: 'status', config: { status: 500 } },
    { name: 'matched #5: 429', events: ['position.matched'], attempts: [5], fault: 'status', config: { status: 429, retryAfterSeconds: 1 } },
    { name: 'matched #6: 410', events: ['position.matched'], attempts: [6], fault: 'status', config: { status: 410 } },
    { name: 'matched #7+: 502', events: ['position.matched'], attempts: { from: 7, to: 1000 }, fault: 'status', config: { status: 502 } },
    { name: 'created #1: 502', events: ['position.created'], attempts: [1], fault: 'status', config: { status: 502 } },
    { name: 'matured #1: late 200', events: ['position.matured'], attempts: [1], fault: 'late-200' },
    { name: 'withdrawal #1: timeout', events: ['withdrawal.completed'], attempts: [1], fault: 'timeout' },
    { name: 'rolled #1: 302', events: ['position.rolled'], attempts: [1], fault: 'status', config: { status: 302 } },
    { name: 'rolled #2: slow body', events: ['position.rolled'], attempts: [2], fault: 'slow-body', config: { totalMs: 200, chunks: 4, status: 500 } },
    { name: 'liquidated #1: garbage 200', events: ['position.liquidated'], attempts: [1], fault: 'garbage-200' },
  ],
};
