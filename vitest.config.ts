import { defineConfig } from 'vitest/config';
import { LongFilesFirst } from './tests/setup/long-files-first.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/setup/private-temporary-directory.ts', 'tests/setup/build-bundles.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // expect.poll waits for something to happen (a page refreshed, a job done); its default of 1 s
    // is a duration asserted by the back door, and on a loaded machine the page's refresh after an
    // ingest job took longer (serve-page-browser's '1–8 of 8' failed so once on unchanged main).
    expect: { poll: { timeout: 15_000 } },
    // Generous timeouts: the suite also runs on shared, loaded machines; no test asserts a duration.
    // Suites start loopback servers and DuckDB files; two cores, so keep parallelism modest.
    maxWorkers: 2,
    // Test files share their two worker processes rather than each starting one and importing
    // DuckDB, srag and the stand-in again: a quarter less CPU in the light files. What a file leaves
    // in the process's variables or working directory is put back after it (restore-process-state.ts).
    isolate: false,
    setupFiles: ['tests/setup/restore-process-state.ts'],
    sequence: { sequencer: LongFilesFirst },
  },
});
