import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/setup/private-temporary-directory.ts', 'tests/setup/build-bundles.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Generous timeouts: the suite also runs on shared, loaded machines; no test asserts a duration.
    // Suites start loopback servers and DuckDB files; two cores, so keep parallelism modest.
    maxWorkers: 2,
  },
});
