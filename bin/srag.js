#!/usr/bin/env node
// The srag command. An installed package runs its built JavaScript (dist/cli.js, made by
// `npm run build`, which `npm pack` runs). A checkout of the repository, where the TypeScript
// sources sit beside this file, runs a bundle of them when one was built from the sources as they
// are now (checking takes a few milliseconds; see ready-bundle.mjs), and otherwise the sources
// themselves through tsx (a quarter to half a second more at every start) while it builds that
// bundle for the next start. So an edit takes effect without a build either way.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { youngGenerationRestart } from './young-generation.mjs';

// Node 22.1 and later keep V8's compiled code of srag's modules on disk (Node's module compile
// cache: in os.tmpdir()/node-compile-cache unless NODE_COMPILE_CACHE names another directory; off
// with NODE_DISABLE_COMPILE_CACHE=1), so a start compiles less. On Node 24.22.3, CPU per command
// (4 alternating runs each): `srag --help` 0.23–0.24 s against 0.23–0.27, `srag stats` 0.54–0.60
// against 0.62–0.64, a one-page `srag ingest` 0.65–0.71 against 0.67–0.73 (Node 22.23.5: 0.51–0.55
// against 0.53–0.55). Its worker threads, its restart below and its sandbox processes find the
// directory in NODE_COMPILE_CACHE. Node 20 has no such cache: nothing happens there.
const compileCache = module.enableCompileCache?.();
if (compileCache?.directory && process.env.NODE_COMPILE_CACHE === undefined) process.env.NODE_COMPILE_CACHE = compileCache.directory;

// Node 24 and later: the long commands start again with Node 20's young generation (see young-generation.mjs).
const restart = typeof process.execve === 'function'
  ? youngGenerationRestart({ argv: process.argv, execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS, v8Version: process.versions.v8 })
  : undefined;
if (restart) {
  try {
    process.execve(process.execPath, restart, process.env);
  } catch {
    // Not replaced (it returns only on an error): the command runs in this process, as on Node 20.
  }
}

const sources = new URL('../node/cli/main.ts', import.meta.url);
let main;
let bundling;
if (existsSync(sources)) {
  const { readyBundle } = await import('../node/runtime/workers/ready-bundle.mjs');
  const bundle = readyBundle(sources);
  if (bundle) {
    ({ main } = await import(bundle.href));
  } else {
    (await import('tsx/esm/api')).register();
    ({ main } = await import(sources.href));
    bundling = import('../node/runtime/workers/worker-bundle.ts').then(({ prepareWorkerBundle }) => prepareWorkerBundle(sources, { packages: 'external' }));
  }
} else {
  ({ main } = await import('../dist/cli.js'));
}
process.exitCode = await main(process.argv);
// Never fails: without a bundle the next start runs the sources again.
await bundling;
