/**
 * Code-sandbox benchmark: `npm run bench:code-sandbox [-- --documents N] [--hostile-documents N] [--designs]`
 *
 * - The cost of reading a document by code: the 11 template functions of the templated car-listing
 *   corpus run on each of N documents (200 by default) in the QuickJS sandbox, as
 *   `srag ingest --synthesize` runs them — every call in a runtime and context of its own. Prints
 *   the wall time and the CPU of this process (all threads: the sandbox's worker too) per document.
 * - The memory of hostile extractors: each of the functions below runs on 40 documents (one call
 *   each, as a function the check keeps failing would) in a process of its own, whose peak
 *   resident set size (getrusage, all threads) is printed; issue 42 measured 1.25 GB for an
 *   extractor pushing arrays. The process holds Node, the worker and the sandbox: the figure is the
 *   whole cost, not the sandbox's alone.
 *
 * - With `--designs`: the CPU a document costs under four ways of isolating calls, run in this
 *   process on QuickJS directly (no worker), one after another, so their ratios compare: a runtime
 *   kept per function across documents (srag before issue 42: state persists), a runtime and
 *   context per call, a runtime per document with a context per call (srag now), and one context
 *   per document whose built-ins and global object are frozen before the functions run.
 *
 * Timings are this machine's; rerun to compare.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DefaultIntrinsics, newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSHandle } from 'quickjs-emscripten-core';
import { QuickJsCodeSandbox } from '../node/runtime/code-sandbox/quickjs-code-sandbox.ts';
import { generateTemplatedCorpus } from '../tests/helpers/templated-corpus.ts';

const { values: flags } = parseArgs({
  options: {
    documents: { type: 'string', default: '200' },
    'hostile-documents': { type: 'string', default: '40' },
    hostile: { type: 'string' },
    designs: { type: 'boolean', default: false },
  },
});

/** Extractors that misbehave with memory, as a model could write them by mistake. */
const hostile: Record<string, string> = {
  'pushes arrays': 'function (text) { const all = []; for (;;) all.push(new Array(100000).fill(text)); }',
  'pushes strings': 'function (text) { const all = []; for (let i = 0; ; i += 1) all.push(text + i); }',
  'pushes small arrays': 'function (text) { const all = []; for (;;) all.push([1, 2, 3]); }',
  'doubles a string': 'function (text) { let grown = text; for (;;) { grown = grown + grown; grown.charCodeAt(grown.length - 1); } }',
};

const directory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-sandbox-'));
try {
  if (flags.hostile) await runHostile(flags.hostile, Number(flags['hostile-documents']));
  else if (flags.designs) await compareDesigns();
  else await main();
} finally {
  rmSync(directory, { recursive: true, force: true });
}

/** The templated corpus and its 11 template functions (gold/extractors.json), as a model that saw the samples writes them. */
function corpusAndFunctions(count: number) {
  const documents = generateTemplatedCorpus(directory, count);
  const templates = JSON.parse(readFileSync(path.join(directory, 'gold', 'extractors.json'), 'utf8')) as Record<string, { pattern: string; flags: string }>;
  const functions = Object.entries(templates).map(([attribute, template]) => ({
    id: attribute,
    source: `function (text) { const match = new RegExp(${JSON.stringify(template.pattern)}, ${JSON.stringify(template.flags)}).exec(text); return match ? { value: match[1], quote: match[0] } : null; }`,
  }));
  return { documents, functions };
}

async function main() {
  const count = Number(flags.documents);
  const { documents, functions } = corpusAndFunctions(count);
  const sandbox = new QuickJsCodeSandbox();
  try {
    // The first call starts the worker and loads QuickJS; it is not timed.
    await sandbox.runFunctions(functions, documents[0]!.text);
    const cpu = process.cpuUsage();
    const started = performance.now();
    let values = 0;
    for (const document of documents) {
      const results = await sandbox.runFunctions(functions, document.text);
      values += results.filter((result) => 'value' in result && result.value !== null).length;
    }
    const wall = (performance.now() - started) / count;
    const used = process.cpuUsage(cpu);
    process.stdout.write(`reading by code: ${count} documents × ${functions.length} functions, ${values} values: ${wall.toFixed(2)} ms a document (wall), ${((used.user + used.system) / 1000 / count).toFixed(2)} ms of CPU a document (all threads)\n`);
  } finally {
    await sandbox.close();
  }
  process.stdout.write(`\npeak memory of a process running one hostile extractor on ${flags['hostile-documents']} documents (default limits: 1 s, 32 MiB):\n`);
  for (const name of Object.keys(hostile)) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--hostile', name, '--hostile-documents', flags['hostile-documents']!], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`bench:code-sandbox: the hostile run "${name}" failed: ${child.stderr}`);
    process.stdout.write(child.stdout);
  }
}

async function runHostile(name: string, count: number) {
  const sandbox = new QuickJsCodeSandbox();
  const failures = new Map<string, number>();
  const started = performance.now();
  try {
    for (let document = 0; document < count; document += 1) {
      const [result] = await sandbox.runFunctions([{ id: 'hostile', source: hostile[name]! }], `Listing ${document}: ${'a line of listing text '.repeat(30)}`);
      const kind = 'failure' in result! ? result.failure.kind : 'value';
      failures.set(kind, (failures.get(kind) ?? 0) + 1);
    }
  } finally {
    await sandbox.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const outcomes = [...failures].map(([kind, times]) => `${times} ${kind}`).join(', ');
  process.stdout.write(`  ${name.padEnd(20)} peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB, ${seconds.toFixed(1)} s (${outcomes})\n`);
}

async function compareDesigns() {
  const count = Number(flags.documents);
  const { documents, functions } = corpusAndFunctions(count);
  const texts = documents.map((document) => document.text);
  const module = await newQuickJSWASMModuleFromVariant(import('@jitl/quickjs-wasmfile-release-sync'));
  const intrinsics = { ...DefaultIntrinsics, TypedArrays: false };
  const wrap = (source: string) => `(function (extract) { return function (text) { var value = extract(text); return value === undefined ? 'null' : JSON.stringify(value); }; })((${source}\n))`;
  const call = (context: QuickJSContext, source: string, text: QuickJSHandle) => {
    const compiled = context.unwrapResult(context.evalCode(wrap(source)));
    const returned = context.unwrapResult(context.callFunction(compiled, context.undefined, text));
    compiled.dispose();
    JSON.parse(context.getString(returned));
    returned.dispose();
  };
  // Every object reachable from the global object frozen, then the global object: no call can leave anything for the next.
  const lockdown = `(() => { const seen = new Set(); const pending = [globalThis]; while (pending.length) { const object = pending.pop(); if ((typeof object !== 'object' && typeof object !== 'function') || object === null || seen.has(object)) continue; seen.add(object); for (const key of Reflect.ownKeys(object)) { const property = Reflect.getOwnPropertyDescriptor(object, key); if ('value' in property) pending.push(property.value); else pending.push(property.get, property.set); } pending.push(Reflect.getPrototypeOf(object)); Object.freeze(object); } })()`;
  const kept = functions.map(({ source }) => {
    const context = module.newRuntime().newContext({ intrinsics });
    return { context, compiled: context.unwrapResult(context.evalCode(wrap(source))) };
  });
  const designs: Array<[string, () => void]> = [
    ['a runtime kept per function (before; state persists)', () => {
      for (const text of texts) for (const { context, compiled } of kept) {
        const argument = context.newString(text);
        const returned = context.unwrapResult(context.callFunction(compiled, context.undefined, argument));
        argument.dispose();
        JSON.parse(context.getString(returned));
        returned.dispose();
      }
    }],
    ['a runtime and context per call', () => {
      for (const text of texts) for (const { source } of functions) {
        const runtime = module.newRuntime();
        const context = runtime.newContext({ intrinsics });
        const argument = context.newString(text);
        call(context, source, argument);
        argument.dispose();
        context.dispose();
        runtime.dispose();
      }
    }],
    ['a runtime per document, a context per call (srag)', () => {
      for (const text of texts) {
        const runtime = module.newRuntime();
        const holder = runtime.newContext({ intrinsics: {} });
        const argument = holder.newString(text);
        for (const { source } of functions) {
          const context = runtime.newContext({ intrinsics });
          call(context, source, argument);
          context.dispose();
        }
        argument.dispose();
        holder.dispose();
        runtime.dispose();
      }
    }],
    ['a frozen context per document', () => {
      for (const text of texts) {
        const runtime = module.newRuntime();
        const context = runtime.newContext({ intrinsics });
        context.unwrapResult(context.evalCode(lockdown)).dispose();
        const argument = context.newString(text);
        for (const { source } of functions) call(context, source, argument);
        argument.dispose();
        context.dispose();
        runtime.dispose();
      }
    }],
  ];
  process.stdout.write(`CPU a document, ${count} documents × ${functions.length} functions, QuickJS in this process (median of 3 rounds):\n`);
  for (const [name, run] of designs) {
    run();
    const rounds = [0, 1, 2].map(() => {
      const started = process.cpuUsage();
      run();
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 1000 / count;
    }).sort((left, right) => left - right);
    process.stdout.write(`  ${name.padEnd(54)} ${rounds[1]!.toFixed(2)} ms\n`);
  }
}
