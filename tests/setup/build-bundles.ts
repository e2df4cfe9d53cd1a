import { prepareWorkerBundle } from '../../node/runtime/workers/worker-bundle.ts';

/**
 * The CLI (bin/srag.js in a checkout), srag's workers and the stand-in's server process (serve.ts)
 * run from bundles of their sources, built when a source changed (see ready-bundle.mjs). Built
 * here, once, before any test file starts: otherwise the first dozen processes the test files start
 * at once would each find none, run the sources through tsx and build the same bundles side by side.
 */
export default async function setup(): Promise<void> {
  const workers = ['../../node/sql-functions/llm-bridge/bridge-worker.ts', '../../node/sql-functions/harness/sql-session-worker.ts', '../../node/runtime/code-sandbox/quickjs-sandbox-worker.ts', '../../node/duckdb/sandbox/sandbox-process.ts'];
  await Promise.all([
    // As bin/srag.js builds it.
    prepareWorkerBundle(new URL('../../node/cli/main.ts', import.meta.url), { packages: 'external' }),
    ...workers.map((module) => prepareWorkerBundle(new URL(module, import.meta.url))),
    // The LLM stand-in as tests/helpers/llm-stand-in/serve.ts serves it in a process of its own.
    prepareWorkerBundle(new URL('../helpers/llm-stand-in/index.ts', import.meta.url)),
  ]);
}
