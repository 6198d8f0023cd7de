import { type Command, Option } from 'commander';
import { InputError } from '../exit-codes.ts';
import { DETECT_DEFAULT_MAX_REQUESTS as DEFAULT_MAX_REQUESTS, DETECT_FULL_REQUESTS as FULL_DETECTION_REQUESTS } from './option-values.ts';

interface DetectFlags {
  baseUrl?: string;
  apiKey?: string;
  apiKey2?: string;
  newKey?: string;
  publicBaseUrl?: string;
  out: string;
  maxRequests?: number;
  receiverHost?: string;
  retryWait?: number;
  allowLive?: boolean;
}

export function registerProfile(program: Command): void {
  const profile = program
    .command('profile')
    .description('Print the effective profile (defaults merged with --profile FILE), validating the file')
    .option('--profile <file>', 'profile file (JSON) to validate and merge over the defaults')
    .option('--explain', 'list every "not shown" spec point with the options that answer it')
    .action(async (opts: { profile?: string; explain?: boolean }) => {
      const { loadProfile, NOT_SHOWN, profileSchema } = await import('../../contract/index.ts');
      const profile = loadProfile(opts.profile);
      if (!opts.explain) {
        console.log(JSON.stringify(profile, null, 2));
        return;
      }
      const schema = profileSchema.toJSONSchema() as { properties: Record<string, unknown> };
      for (const n of NOT_SHOWN) {
        console.log(`- spec: …${n.phrase}…`);
        for (const a of n.answers) console.log(`    ${a}${describe(schema, a)}`);
      }
    });

  profile
    .command('detect')
    .description('Probe a target with a bounded number of requests and write the profile it follows, each option with its evidence and a confidence')
    .option('--base-url <url>', 'target base URL ending in /v1 (env LENDCHECK_BASE_URL)')
    .option('--api-key <key>', 'a sandbox key of the target (env LENDCHECK_API_KEY)')
    .option('--api-key-2 <key>', "a second partner's key (env LENDCHECK_API_KEY_2)")
    .option('--new-key <key>', 'a key the target issued without a chosen tier, to read its default tier from (env LENDCHECK_NEW_KEY)')
    .option('--public-base-url <url>', 'base URL of the public endpoints, when different')
    .option('--out <file>', 'where the profile goes', 'profile.json')
    .addOption(new Option('--max-requests <n>', `request budget (default: ${DEFAULT_MAX_REQUESTS}, a Starter key's burst, raised up to ${FULL_DETECTION_REQUESTS} where the key's X-RateLimit-Remaining shows room)`).argParser(Number))
    .option('--receiver-host <host>', 'host the target reaches lendcheck\'s webhook receiver at (default 127.0.0.1)')
    .addOption(new Option('--retry-wait <seconds>', 'without sandbox controls, how long to wait for a first webhook retry; a target at real time needs about 90 (default 3: only a faster clock is read)').argParser(Number))
    .option('--allow-live', 'allow a ck_live_ key (detection places and cancels small orders); off by default', false)
    .action(async (o: DetectFlags) => {
      const baseUrl = o.baseUrl ?? process.env.LENDCHECK_BASE_URL;
      const apiKey = o.apiKey ?? process.env.LENDCHECK_API_KEY;
      if (!baseUrl || !apiKey) throw new InputError('profile detect needs --base-url and --api-key (or LENDCHECK_BASE_URL and LENDCHECK_API_KEY)');
      const { detectToFile, retryWaitMs } = await import('../../detect/cli.ts');
      const { givenKey, preflight } = await import('../preflight/preflight.ts');
      const newKey = o.newKey ?? process.env.LENDCHECK_NEW_KEY;
      const apiKey2 = o.apiKey2 ?? process.env.LENDCHECK_API_KEY_2;
      const retryWait = retryWaitMs(o.retryWait);
      if (o.maxRequests !== undefined && !(o.maxRequests >= 10)) throw new InputError(`--max-requests: at least 10, got ${o.maxRequests}`);
      // Detection places and cancels orders: a live key needs the opt-in, and a refused key or a
      // wrong address stops here, before a profile of defaults could be written as if detected.
      const keys = [givenKey('--api-key', o.apiKey, 'LENDCHECK_API_KEY'), givenKey('--api-key-2', o.apiKey2, 'LENDCHECK_API_KEY_2'), givenKey('--new-key', o.newKey, 'LENDCHECK_NEW_KEY')];
      await preflight({ baseUrl, publicBaseUrl: o.publicBaseUrl, keys, allowLive: !!o.allowLive });
      const { summary, file } = await detectToFile(
        { baseUrl, apiKey, apiKey2, newKey, publicBaseUrl: o.publicBaseUrl, maxRequests: o.maxRequests, receiverHost: o.receiverHost, retryWaitMs: retryWait },
        o.out,
      );
      for (const l of summary) console.log(l);
      console.log(`profile written to ${file} (use it with --profile ${file})`);
    });
}

function describe(schema: { properties: Record<string, unknown> }, path: string): string {
  if (path.startsWith('shapes.')) return '  (response shape in contract/shapes.ts)';
  let node: unknown = schema;
  for (const k of path.split('.')) node = (node as { properties?: Record<string, unknown> })?.properties?.[k];
  const reason = (node as { reason?: string } | undefined)?.reason;
  return reason ? `  — ${reason}` : '';
}
