// The heavy libraries only some users need (vitest for the conformance suite, echarts for the
// report's charts, testcontainers for the container) are optional peer dependencies of the
// package (package.json peerDependenciesMeta), so a partner who installs lendcheck for msw does
// not download them. Where one is missing, the code that needs it says so in one line, naming
// the package to install, instead of Node's "Cannot find package" with a stack.

export class MissingPeerError extends Error {
  override name = 'MissingPeerError';
  constructor(
    readonly pkg: string,
    readonly usedBy: string,
  ) {
    super(`${usedBy} needs ${pkg}, which lendcheck leaves optional: install it beside lendcheck (npm i -D ${pkg})`);
  }
}

/** Whether `e` is Node failing to find `pkg` itself (not a module missing inside it). */
export function isMissingPackage(e: unknown, pkg: string): boolean {
  const err = e as { code?: string; message?: string } | null;
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' && err?.code !== 'MODULE_NOT_FOUND') return false;
  const m = err.message ?? '';
  return m.includes(`'${pkg}'`) || m.includes(`'${pkg}/`) || m.includes(`"${pkg}"`);
}

/** Runs `load` (an import or require of `pkg`), turning "not installed" into MissingPeerError. */
export async function importPeer<T>(pkg: string, usedBy: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (isMissingPackage(e, pkg)) throw new MissingPeerError(pkg, usedBy);
    throw e;
  }
}

/** importPeer for a synchronous require. */
export function requirePeer<T>(pkg: string, usedBy: string, load: () => T): T {
  try {
    return load();
  } catch (e) {
    if (isMissingPackage(e, pkg)) throw new MissingPeerError(pkg, usedBy);
    throw e;
  }
}
