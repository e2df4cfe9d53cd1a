#!/usr/bin/env node
// The srag command. An installed package runs its built JavaScript (dist/cli.js, made by
// `npm run build`, which `npm pack` runs). A checkout of the repository, where the TypeScript
// sources sit beside this file, runs a bundle of them when one was built from the sources as they
// are now (checking takes a few milliseconds; see ready-bundle.mjs), and otherwise the sources
// themselves through tsx (a quarter to half a second more at every start) while it builds that
// bundle for the next start. So an edit takes effect without a build either way.
'use strict';
// CommonJS (bin/package.json), not an ES module: Node reads an ES module entry through libuv's
// thread pool, which starts the pool before the entry's first line could size it (below).
const { existsSync } = require('node:fs');
const nodeModule = require('node:module');
const { pathToFileURL } = require('node:url');

// `srag ingest` runs with one thread in libuv's pool, where node-api runs each DuckDB statement:
// its statements run one at a time anyway (the store's queue), and spread over the pool's four
// threads they each met DuckDB's and its allocator's per-thread state cold (a grouped query's hash
// table was zeroed on fresh pages). 3,000 pages, 8 alternating pairs: 0.2 s less CPU (median),
// lower in 7. The ingest puts nothing on the pool that waits on a statement (no SQL function calls
// back into JavaScript there); a DNS lookup or an asynchronous file read waits behind a running
// statement instead. Set before anything uses the pool, which reads it once; a size the user set is kept.
if (process.argv[2] === 'ingest' && process.env.UV_THREADPOOL_SIZE === undefined) process.env.UV_THREADPOOL_SIZE = '1';

// Node 22.1 and later keep V8's compiled code of srag's modules on disk (Node's module compile
// cache: in os.tmpdir()/node-compile-cache unless NODE_COMPILE_CACHE names another directory; off
// with NODE_DISABLE_COMPILE_CACHE=1), so a start compiles less. On Node 24.22.3, CPU per command
// (4 alternating runs each): `srag --help` 0.23–0.24 s against 0.23–0.27, `srag stats` 0.54–0.60
// against 0.62–0.64, a one-page `srag ingest` 0.65–0.71 against 0.67–0.73 (Node 22.23.5: 0.51–0.55
// against 0.53–0.55). Its worker threads, its restart below and its sandbox processes find the
// directory in NODE_COMPILE_CACHE. Node 20 has no such cache: nothing happens there.
const compileCache = nodeModule.enableCompileCache?.();
if (compileCache?.directory && process.env.NODE_COMPILE_CACHE === undefined) process.env.NODE_COMPILE_CACHE = compileCache.directory;

async function run() {
  const { youngGenerationRestart } = await import('./young-generation.mjs');
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

  const sources = pathToFileURL(`${__dirname}/../node/cli/main.ts`);
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
}

run();
