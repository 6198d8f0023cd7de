import { type Command, Option } from 'commander';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EVENT_TYPES } from '../../contract/constants.ts';
import type { SandboxServer } from '../../sandbox/server.ts';
import { preflight, refuseLive } from '../preflight/preflight.ts';
import { selfCommand } from '../../kernel/self-command.ts';
import { SANDBOX_TEST_KEY } from './option-values.ts';

// `lendcheck listen --forward-to URL` and `lendcheck trigger EVENT` (cli/listen/): Stripe's
// `stripe listen` / `stripe trigger` for this interface. Without --base-url, listen starts
// the reference sandbox on --sandbox-port (4010, the port `lendcheck sandbox` uses), which is
// where trigger sends by default.

const DEFAULT_BASE = 'http://127.0.0.1:4010/v1';
const TEST_KEY = SANDBOX_TEST_KEY;

function keyFor(given: string | undefined, allowLive: boolean): string {
  const key = given ?? process.env.LENDCHECK_API_KEY ?? TEST_KEY;
  refuseLive([{ option: given !== undefined ? '--api-key' : 'LENDCHECK_API_KEY', key }], allowLive);
  return key;
}

/** Resolves on SIGINT/SIGTERM, naming the signal. */
const untilSignal = () =>
  new Promise<string>((done) => {
    const on = (sig: string) => () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      done(sig);
    };
    const onInt = on('SIGINT');
    const onTerm = on('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });

interface ListenFlags {
  forwardTo: string;
  baseUrl?: string;
  apiKey?: string;
  allowLive: boolean;
  profile?: string;
  events?: string;
  secret?: string;
  secretFile: string;
  port: string;
  host: string;
  sandboxPort: string;
}

export function registerListen(program: Command): void {
  program
    .command('listen')
    .description('Receive a target\'s webhooks on a local port, verify them and forward each to your receiver (like stripe listen); removes its subscription on exit')
    .requiredOption('--forward-to <url>', 'your local webhook receiver, e.g. http://127.0.0.1:3000/webhooks')
    .option('--base-url <url>', 'target base URL ending in /v1 (or env LENDCHECK_BASE_URL; default: start the reference sandbox on --sandbox-port)')
    .option('--api-key <key>', `target API key (or env LENDCHECK_API_KEY; default the sandbox test key ${TEST_KEY})`)
    .option('--allow-live', 'allow a ck_live_ key (production)', false)
    .option('--profile <file>', 'profile file (JSON): signature scheme, subscription fields, the embedded sandbox\'s behaviour')
    .option('--events <list>', `comma-separated event types (default: all of ${EVENT_TYPES.join(', ')})`)
    .addOption(new Option('--secret <whsec>', 'the subscription secret your receiver checks (default: generated and written to --secret-file)').env('LENDCHECK_WEBHOOK_SECRET'))
    .option('--secret-file <file>', 'where a generated (or target-issued) secret is written, mode 600; it is never printed', '.lendcheck/listen-secret')
    .option('--port <n>', 'local port deliveries arrive at (0: any free port)', '0')
    .option('--host <addr>', 'address the target reaches this machine at', '127.0.0.1')
    .option('--sandbox-port <n>', 'port of the embedded sandbox (only without --base-url)', '4010')
    .action(async (o: ListenFlags) => {
      const { loadProfile } = await import('../../contract/index.ts');
      const profile = loadProfile(o.profile);
      const events = o.events ? o.events.split(',').map((s) => s.trim()).filter(Boolean) : [...EVENT_TYPES];
      const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
      if (unknown.length) throw new Error(`--events: unknown type ${unknown[0]}; one of ${EVENT_TYPES.join(', ')}`);
      const apiKey = keyFor(o.apiKey, o.allowLive);
      let sandbox: SandboxServer | undefined;
      let baseUrl = o.baseUrl ?? process.env.LENDCHECK_BASE_URL;
      if (baseUrl) {
        const given = o.apiKey !== undefined ? '--api-key' : process.env.LENDCHECK_API_KEY ? 'LENDCHECK_API_KEY' : '--api-key (its default, the sandbox test key)';
        await preflight({ baseUrl, urlOption: o.baseUrl ? '--base-url' : 'LENDCHECK_BASE_URL', keys: [{ option: given, key: apiKey }], allowLive: o.allowLive });
      }
      const { startListen } = await import('../listen/forward.ts');
      if (!baseUrl) {
        const { startSandboxServer } = await import('../../sandbox/server.ts');
        const { defaultPlugins } = await import('../../sandbox/plugins.ts');
        const { consolePlugin } = await import('../../sandbox/console/plugin.ts');
        sandbox = await startSandboxServer({ port: Number(o.sandboxPort), profile, dbPath: ':memory:', plugins: [...defaultPlugins(), consolePlugin()] });
        baseUrl = sandbox.url;
        // A key given for the embedded sandbox must be one of its own (cli/preflight/embedded.ts).
        if (o.apiKey !== undefined || process.env.LENDCHECK_API_KEY) {
          const { checkKeysAt } = await import('../preflight/embedded.ts');
          await checkKeysAt(baseUrl, [{ option: o.apiKey !== undefined ? '--api-key' : 'LENDCHECK_API_KEY', key: apiKey }]).catch(async (e: unknown) => {
            await sandbox?.close();
            throw e;
          });
        }
        console.log(`reference sandbox at ${baseUrl} (profile "${profile.name}"; trigger events with: ${selfCommand()} trigger <type>${sandbox.port === 4010 ? '' : ` --base-url ${baseUrl}`}; console at ${new URL('/console', baseUrl).href})`);
      }
      const listener = await startListen({ baseUrl, apiKey, profile, forwardTo: o.forwardTo, events, secret: o.secret, port: Number(o.port), host: o.host }).catch(async (e: unknown) => {
        await sandbox?.close();
        throw e;
      });
      let secretNote = 'with the secret you gave (--secret)';
      if (!o.secret || listener.secret !== o.secret) {
        const file = resolve(o.secretFile);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, `${listener.secret}\n`, { mode: 0o600 });
        chmodSync(file, 0o600);
        secretNote = `${o.secret ? 'the target issued its own secret; it' : 'its secret'} is in ${file} (give it to your receiver)`;
      }
      console.log(`listening at ${listener.url} for ${baseUrl}: subscription ${listener.webhookId ?? '(no id returned)'}, signature ${profile.signature.scheme}, ${secretNote}`);
      console.log(`forwarding to ${o.forwardTo}; one line per event: time, type, id → your receiver's status, latency. Ctrl-C removes the subscription.`);
      const sig = await untilSignal();
      console.log(`${sig}: stopping`);
      await listener.close();
      await sandbox?.close();
    });

  program
    .command('trigger')
    .description('Emit one event on a target with sandbox controls (like stripe trigger), e.g. lendcheck trigger position.matched')
    .argument('<event>', `event type: ${EVENT_TYPES.join(' | ')}`)
    .option('--base-url <url>', `target base URL ending in /v1 (or env LENDCHECK_BASE_URL; default ${DEFAULT_BASE}, where lendcheck listen and lendcheck sandbox run)`)
    .option('--api-key <key>', `target API key (or env LENDCHECK_API_KEY; default the sandbox test key ${TEST_KEY})`)
    .option('--allow-live', 'allow a ck_live_ key (production)', false)
    .option('--position-id <id>', "use this position's data (else a synthetic record marked synthetic: true)")
    .option('--user-id <id>', 'the user of a synthetic record')
    .action(async (type: string, o: { baseUrl?: string; apiKey?: string; allowLive: boolean; positionId?: string; userId?: string }) => {
      const baseUrl = o.baseUrl ?? process.env.LENDCHECK_BASE_URL ?? DEFAULT_BASE;
      const { NoControlsError, triggerEvent } = await import('../listen/trigger.ts');
      try {
        const r = await triggerEvent({ baseUrl, apiKey: keyFor(o.apiKey, o.allowLive), type, positionId: o.positionId, userId: o.userId });
        console.log(`triggered ${r.type} ${r.eventId} on ${baseUrl}`);
      } catch (e) {
        if (!(e instanceof NoControlsError)) throw e;
        console.error(`lendcheck trigger: ${e.message}`);
        process.exitCode = 3;
      }
    });
}
