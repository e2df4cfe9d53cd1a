#!/usr/bin/env node
// The srag command. An installed package runs its built JavaScript (dist/cli.js, made by
// `npm run build`, which `npm pack` runs). A checkout of the repository, where the TypeScript
// sources sit beside this file, runs them through tsx, so an edit takes effect without a build.
import { existsSync } from 'node:fs';

const sources = new URL('../duckdb-udf/src/cli/main.ts', import.meta.url);
let main;
if (existsSync(sources)) {
  (await import('tsx/esm/api')).register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import('../dist/cli.js'));
}
process.exitCode = await main(process.argv);
