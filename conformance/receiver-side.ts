// Receiver-side obligations of spec part 6: what a partner's webhook receiver must do.
// The target of the conformance suite is the sender, so these are certified by chaos/
// (the receiver certifier, `lendcheck chaos certify`); coverage.test.ts proves chaos/
// cites each one, and conformance.json marks them as covered there.
export const RECEIVER_SIDE = ['HOOK-invalid-401', 'HOOK-answer-5s', 'HOOK-idempotent'] as const;
export const RECEIVER_SIDE_NOTE = 'receiver-side: certified by chaos/ (lendcheck chaos certify), not by this suite';
