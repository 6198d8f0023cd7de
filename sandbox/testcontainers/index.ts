import { AbstractStartedContainer, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import type { Profile } from '../../contract/index.ts';
import { API_VERSION_PREFIX } from '../../contract/constants.ts';
import { routePath } from '../../contract/fill-path.ts';
import { ROUTES } from '../../contract/routes.ts';
import { DEFAULT_KEYS, type KeyEntry } from '../auth/keys.ts';
import type { PartnerReport } from '../partner-report/types.ts';
import { PARTNER_REPORT_PATH } from '../partner-report/path.ts';

// `lendcheck/testcontainers`: the sandbox image as a testcontainers module, in the style of
// testcontainers' own (PostgreSqlContainer and the rest): a GenericContainer with `with…`
// options and a started container with its URL and its controls. It drives the image only
// through its environment, its command and HTTP, so the same image serves Python's and Go's
// testcontainers the same way (docs/partners.md).

// The partner-report matchers live in lendcheck/matchers (every way uses them); re-exported here
// for the tests written when they lived only here.
export { assertCleanPartnerReport, formatPartnerReport, installPartnerMatchers, partnerMatchers, type Finding, type PartnerReport, type ReportSource } from '../partner-report/matchers.ts';
export type { KeyEntry } from '../auth/keys.ts';

/** The image the Dockerfile builds (`docker build -t lendcheck-sandbox:local .`), unless LENDCHECK_IMAGE names another. */
export const DEFAULT_SANDBOX_IMAGE = process.env.LENDCHECK_IMAGE ?? 'lendcheck-sandbox:local';
const PORT = 8080;
const PROFILE_IN_CONTAINER = '/tmp/lendcheck-profile.json';
/** The partner report's control under the base URL (which ends in /v1). */
const REPORT = PARTNER_REPORT_PATH.slice(API_VERSION_PREFIX.length);

export class LendcheckSandboxContainer extends GenericContainer {
  private keys: KeyEntry[] = DEFAULT_KEYS;
  private profile: Partial<Profile> | undefined;
  private timeScale = 1;
  private partnerReport = true;
  private hostNetwork: number | undefined;
  private extraArgs: string[] = [];

  constructor(image = DEFAULT_SANDBOX_IMAGE) {
    super(image);
    this.withExposedPorts(PORT).withStartupTimeout(60_000);
  }

  /** The profile (every "not shown" choice of the spec) the sandbox plays; merged over the defaults. */
  withProfile(profile: Partial<Profile>): this {
    this.profile = profile;
    return this;
  }

  /** Business seconds per real second (maturity in seconds at 86 400 × and more). */
  withTimeScale(n: number): this {
    if (!(n > 0)) throw new Error(`withTimeScale: must be > 0, got ${n}`);
    this.timeScale = n;
    return this;
  }

  /** The key store: ck_test_ keys, each with its partner and tier (default: the public test keys). */
  withKeys(keys: KeyEntry[]): this {
    this.keys = keys;
    return this;
  }

  /** Turns the partner report off (it is on by default here: it is what the container is for). */
  withoutPartnerReport(): this {
    this.partnerReport = false;
    return this;
  }

  /**
   * Runs on the host's network, the sandbox on 127.0.0.1:`port`: webhook deliveries then reach
   * a receiver on the host's loopback, which a bridged container cannot (Linux engines only).
   */
  withHostNetwork(port: number): this {
    this.hostNetwork = port;
    return this;
  }

  /** More `lendcheck sandbox` flags (e.g. ['--no-liquidity']). */
  withSandboxArgs(...args: string[]): this {
    this.extraArgs.push(...args);
    return this;
  }

  override async start(): Promise<StartedLendcheckSandboxContainer> {
    const port = this.hostNetwork ?? PORT;
    this.withEnvironment({
      LENDCHECK_SANDBOX_HOST: this.hostNetwork ? '127.0.0.1' : '0.0.0.0',
      LENDCHECK_SANDBOX_PORT: String(port),
      LENDCHECK_TIME_SCALE: String(this.timeScale),
      LENDCHECK_KEYS: JSON.stringify(this.keys),
    });
    const args = ['sandbox', '--db', ':memory:', '--no-console', ...(this.partnerReport ? ['--partner-report'] : []), ...this.extraArgs];
    if (this.profile) {
      this.withCopyContentToContainer([{ content: JSON.stringify(this.profile), target: PROFILE_IN_CONTAINER, mode: 0o644 }]);
      args.push('--profile', PROFILE_IN_CONTAINER);
    }
    this.withCommand(args);
    if (this.hostNetwork) {
      // No mapped port on the host network: the wait polls the service's own port.
      this.withNetworkMode('host').withExposedPorts().withWaitStrategy(Wait.forLogMessage(/lendcheck sandbox listening on/));
    } else this.withWaitStrategy(Wait.forHttp(`${API_VERSION_PREFIX}${routePath('public.markets')}`, PORT).forStatusCodeMatching((s) => s < 500));
    const started = await super.start();
    const base = this.hostNetwork ? `http://127.0.0.1:${port}/v1` : `http://${started.getHost()}:${started.getMappedPort(PORT)}/v1`;
    return new StartedLendcheckSandboxContainer(started, base, this.keys);
  }
}

export class StartedLendcheckSandboxContainer extends AbstractStartedContainer {
  constructor(
    startedTestContainer: StartedTestContainer,
    private readonly baseUrl: string,
    readonly keys: readonly KeyEntry[],
  ) {
    super(startedTestContainer);
  }

  /** The base URL, ending in /v1. */
  getBaseUrl(): string {
    return this.baseUrl;
  }

  /** A key of the store: the first of `partnerId` (and `tier`) when given. */
  key(partnerId?: string, tier?: string): string {
    const k = this.keys.find((e) => (partnerId === undefined || e.partnerId === partnerId) && (tier === undefined || e.tier === tier));
    if (!k) throw new Error(`no key for partner ${partnerId ?? '(any)'} tier ${tier ?? '(any)'}; the store has ${this.keys.map((e) => `${e.partnerId}/${e.tier ?? 'default'}`).join(', ')}`);
    return k.key;
  }

  /** Moves the sandbox's test clock forward (POST /v1/sandbox/clock/advance): matching, maturity, retries fall due. */
  async advanceClock(seconds: number): Promise<{ now: string }> {
    return this.control(ROUTES['sandbox.clock.advance'].method, routePath('sandbox.clock.advance'), { seconds: Math.ceil(seconds) });
  }

  /** The partner report so far (GET /v1/sandbox/partner-report); `partner` narrows it to that partner's findings. */
  async partnerReport(partner?: string): Promise<PartnerReport> {
    const key = partner === undefined ? undefined : this.key(partner);
    return this.control('GET', REPORT, undefined, key);
  }

  /** Forgets what the report recorded (DELETE /v1/sandbox/partner-report), for a clean next test. */
  async resetPartnerReport(): Promise<void> {
    await this.control('DELETE', REPORT);
  }

  private async control<T>(method: string, path: string, body?: unknown, key = (this.keys.find((k) => k.tier === 'scale') ?? this.keys.at(-1))?.key): Promise<T> {
    // Controls are the test's own calls, on the roomiest key: a test that exhausts a Starter
    // key (the 429 scenario) must still read its report.
    const r = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: expected 2xx, received ${r.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
