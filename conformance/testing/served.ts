import type { SandboxOptions } from '../../sandbox/app.ts';
import { serveWrapped } from '../embedded.ts';

// Many of lendcheck's own tests run against the reference sandbox as it is, served over real
// HTTP, and must not leave its port open when an expectation throws. The run itself (runChecks,
// the retry watch, direct requests) stays in each test: its options are what the test is about.

/** The sandbox as `serveWrapped` serves it: its URL, keys and the sandbox object. */
export type ServedSandbox = Awaited<ReturnType<typeof serveWrapped>>;

/** Serves the reference sandbox unchanged (a pass-through wrapper) with `opts`, runs `body`
 *  against it, and closes it however `body` ends; resolves to what `body` resolves to. */
export async function withServed<T>(opts: SandboxOptions, body: (t: ServedSandbox) => Promise<T>): Promise<T> {
  const t = await serveWrapped((req, next) => next(req), opts);
  try {
    return await body(t);
  } finally {
    await t.close();
  }
}
