import { evidence, firstOf, type PartnerCheck } from '../types.ts';

// Part 5: production keys start ck_live_, sandbox keys ck_test_. A ck_live_ key reaching the
// sandbox means a production secret sits in test code or test config. The key itself never
// appears in the finding: only that one was sent, and where.

export const liveKey: PartnerCheck = {
  name: 'live-key',
  rule: 'part 5: ck_live_ keys are production keys; tests use ck_test_ keys',
  description: 'a ck_live_ (production) key sent to the sandbox',
  run({ exchanges }) {
    const live = exchanges.filter((e) => e.key === 'live');
    if (!live.length) return [];
    return [
      {
        check: this.name,
        rule: this.rule,
        expected: 'only ck_test_ keys in test code; production keys kept out of the repository and the test environment',
        received: `${live.length} request(s) carrying a ck_live_ key (the key is not shown)`,
        requests: firstOf(live.map((e) => evidence(e, 'Authorization: Bearer ck_live_…'))),
      },
    ];
  },
};
