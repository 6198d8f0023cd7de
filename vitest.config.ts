import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The package's own name resolves to its sources here, as tsc does through the
  // 'lendcheck-source' condition (package.json exports), so tests need no build first.
  resolve: { alias: [{ find: /^lendcheck$/, replacement: fileURLToPath(new URL('./index.ts', import.meta.url)) }] },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'scenarios/**', 'lendcheck-reports/**', '.tmp/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
