import { fileURLToPath } from 'node:url';
import { generateWebhookSecret } from '../../signing/signature.ts';
import { runCertify } from '../../chaos/certify/run.ts';
import { start } from '../../examples/receivers/sample.ts';
import type { GateStep } from './step-types.ts';

// The gate certifies the sample receiver (examples/receivers/sample.ts): it starts it on
// a loopback port with a fresh secret and runs the chaos certifier against it. The
// secret lives only for this run and is masked in every report by its whsec_ prefix.

export const SAMPLE_RECEIVER = 'examples/receivers/sample.ts';
const SAMPLE_SOURCE = fileURLToPath(new URL('../../examples/receivers/sample.ts', import.meta.url));

export const certifyStep: GateStep = {
  name: 'certify',
  part: 'certify',
  title: 'certification of the sample receiver',
  needs: [],
  async run(ctx) {
    const secret = generateWebhookSecret();
    // The sample verifies with the profile's scheme, the one the certifier signs with.
    const receiver = await start({ secret, port: 0, scheme: ctx.profile.signature.scheme ?? undefined });
    try {
      ctx.log(`sample receiver at ${receiver.url}`);
      const r = await runCertify({ url: receiver.url, secret, profile: ctx.profile, sources: [SAMPLE_SOURCE] });
      return { ...r, name: `sample receiver (${SAMPLE_RECEIVER})` };
    } finally {
      await receiver.close();
    }
  },
};
