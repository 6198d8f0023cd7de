import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../contract/constants.ts';
import type { PartResult } from '../../contract/results.ts';
import { importPart, REPO_ROOT } from './import-part.ts';
import type { GateStep, StepContext } from './steps.ts';

// The gate certifies the sample receiver (examples/receivers/sample.ts): it starts it on
// a loopback port with a fresh secret and runs the chaos certifier against it. The
// secret lives only for this run and is masked in every report by its whsec_ prefix.

type StartReceiver = (o: { secret: string; port?: number; scheme?: StepContext['profile']['signature']['scheme'] }) => Promise<{ url: string; close(): Promise<void> }>;
type RunCertify = (o: { url: string; secret: string; profile?: StepContext['profile']; sources?: string[] }) => Promise<PartResult>;

export const SAMPLE_RECEIVER = 'examples/receivers/sample.ts';

export const certifyStep: GateStep = {
  name: 'certify',
  part: 'certify',
  title: 'certification of the sample receiver',
  needs: [],
  async run(ctx) {
    const start = await importPart<StartReceiver>([SAMPLE_RECEIVER], 'start');
    const runCertify = await importPart<RunCertify>(['chaos/certify/run.ts', 'chaos/index.ts'], 'runCertify');
    const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
    // The sample verifies with the profile's scheme, the one the certifier signs with.
    const receiver = await start({ secret, port: 0, scheme: ctx.profile.signature.scheme });
    try {
      ctx.log(`sample receiver at ${receiver.url}`);
      const r = await runCertify({ url: receiver.url, secret, profile: ctx.profile, sources: [REPO_ROOT + SAMPLE_RECEIVER] });
      return { ...r, name: `sample receiver (${SAMPLE_RECEIVER})` };
    } finally {
      await receiver.close();
    }
  },
};
