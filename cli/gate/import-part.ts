import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export class PartUnavailable extends Error {}

/**
 * Loads a part's entry point by module path (relative to the repository) and export
 * name. The parts are built by other people in parallel; a missing one must show as
 * such in the verdict instead of breaking the gate's own import graph.
 */
export async function importPart<F extends (...a: never[]) => unknown>(candidates: string[], exportName: string): Promise<F> {
  const tried: string[] = [];
  for (const rel of candidates) {
    const file = REPO_ROOT + rel;
    if (!existsSync(file)) {
      tried.push(`${rel} (absent)`);
      continue;
    }
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    if (typeof mod[exportName] === 'function') return mod[exportName] as F;
    tried.push(`${rel} (no export ${exportName})`);
  }
  throw new PartUnavailable(`part not available: ${exportName}() not found in ${tried.join(', ')}`);
}

