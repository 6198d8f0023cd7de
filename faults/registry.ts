import { configProblem, type Fault, type FaultSetting, type Installed, type Seam } from './fault.ts';

const HTTP_SEAMS: readonly Seam[] = ['receiver', 'http-proxy', 'webhook-sender'];

// One typed registry for every host (the sandbox, the chaos receiver, the mutants' proxy):
// a host lists its faults once, by value, and the registry's names are a union type. Naming a
// fault in code goes through `get` or `setting`, so a missing or misspelt name is a type error
// (tsc), not an exception at import or at start; names that arrive as text (the `--fault` flag,
// a plan file) are checked once by `validate`, with one-line errors.

/** The names of a registry's faults. */
export type NameOf<F extends Fault> = F['name'];

/** The fault of a registry named N: its own type, or the registry's type where one type holds several names. */
export type Named<F extends Fault, N extends string> = [Extract<F, { name: N }>] extends [never] ? F : Extract<F, { name: N }>;

export interface FaultRegistry<F extends Fault> {
  /** Every fault, in the order the host listed them. */
  readonly all: readonly F[];
  /** Every name, in that order. */
  readonly names: ReadonlyArray<NameOf<F>>;
  /** The fault of that name: the name is checked by tsc, and the result is typed as that fault (as any of them where one type holds several names). */
  get<N extends NameOf<F>>(name: N): Named<F, N>;
  /** A setting for a fault named in code (checked by tsc), with its optional config and toxicity. */
  setting<N extends NameOf<F>>(name: N, config?: Record<string, unknown>, more?: Omit<FaultSetting, 'name' | 'config'>): FaultSetting<N>;
  /** A name that arrived as text: the fault, or undefined when no fault of the registry has it. */
  find(name: string): F | undefined;
  /** The faults at these seams, in order. */
  at(...seams: Seam[]): F[];
  /** Checks settings from text (a known name, a config its module accepts, a toxicity in 0..1) before anything starts. */
  validate(settings: readonly FaultSetting[]): Array<Installed<F>>;
}

/** A registry of the faults given; a name is taken once (a duplicate throws at construction). */
export function faultRegistry<const T extends readonly Fault[]>(...faults: T): FaultRegistry<T[number]> {
  type F = T[number];
  const byName = new Map<string, F>();
  for (const f of faults) {
    if (byName.has(f.name)) throw new Error(`fault "${f.name}" is listed twice`);
    byName.set(f.name, f);
  }
  const names = faults.map((f) => f.name);
  const find = (name: string): F | undefined => byName.get(name);
  return {
    all: faults,
    names,
    get: (name) => byName.get(name) as never,
    setting: (name, config, more) => ({ name, ...(config ? { config } : {}), ...more }),
    find,
    at: (...seams) => faults.filter((f) => seams.includes(f.seam)),
    validate: (settings) =>
      settings.map((s) => {
        const fault = find(s.name);
        if (!fault) throw new Error(`unknown fault ${JSON.stringify(s.name)}; faults are ${names.join(', ')}`);
        const parsed = fault.config.safeParse(s.config ?? {});
        if (!parsed.success) throw new Error(`fault ${s.name}: bad config: ${configProblem(parsed.error.issues)}`);
        // Toxicity is a share of HTTP exchanges; a fault at another seam has none to draw from.
        if (s.toxicity !== undefined && !HTTP_SEAMS.includes(fault.seam)) throw new Error(`fault ${s.name}: toxicity applies to the HTTP seams only, not to ${fault.seam}`);
        const toxicity = s.toxicity ?? 1;
        if (!(toxicity >= 0 && toxicity <= 1)) throw new Error(`fault ${s.name}: toxicity ${toxicity} is not a share in 0..1`);
        return { fault, config: parsed.data, toxicity, seed: s.seed ?? 1 };
      }),
  };
}
