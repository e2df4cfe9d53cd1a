import { expect, it } from 'vitest';
import { readCliBundle } from '../helpers/read-cli-bundle.ts';

// `require` of @duckdb/node-api's 181 files cost ~135 ms of CPU at every start of a command that
// opens a database; carried in the bundle, ~65 ms. The small packages every start loads are
// carried too (node/runtime/workers/worker-bundle.ts).
it("carries @duckdb/node-api and the packages every command loads in the CLI bundle, and loads DuckDB's native library as a package", async () => {
  const code = await readCliBundle();
  // The package's own module, wrapped in the bundle.
  expect(code.includes('node_modules/@duckdb/node-api/lib/DuckDBInstance.js'), "node-api's DuckDBInstance.js in the bundle").toBe(true);
  // Neither imported nor required as a package at run time; its binding is.
  expect(code.match(/(from\s*|require\(|import\(|\)\()"@duckdb\/node-api"/g) ?? []).toEqual([]);
  expect(code.match(/__require\("@duckdb\/node-bindings-[a-z0-9-]+\/duckdb\.node"\)/g)?.length ?? 0, "the platforms' native libraries required at run time").toBeGreaterThan(0);
  for (const name of ['@duckdb/node-bindings', 'commander', 'p-limit', 'tinyglobby', 'htmlparser2', 'cli-progress', '@noble/hashes']) {
    expect(code.match(new RegExp(`(from\\s*|require\\(|import\\()"${name}["/]`, 'g')) ?? [], `${name} loaded at run time`).toEqual([]);
  }
  // A CommonJS package keeps its path as the name of its wrapper.
  expect(code.includes('node_modules/commander/lib/command.js'), 'commander in the bundle').toBe(true);
  // What few commands load stays a package.
  expect(code.includes('from"@hono/node-server"'), 'hono imported at run time').toBe(true);
});
