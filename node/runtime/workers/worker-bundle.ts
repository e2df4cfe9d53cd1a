import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { bundleCacheDirectory, bundleManifestFile, hashFile, readyBundle } from './ready-bundle.mjs';

/** What a cached bundle was built from: each input's size, modification time and SHA-256. */
interface Manifest {
  /** The entry file, relative to the cache directory (its chunks sit beside it). */
  bundle: string;
  inputs: Record<string, { size: number; modified: number; hash: string }>;
}

/**
 * Packages the bundle imports at run time rather than carrying: native code, large and loaded late,
 * or (QuickJS's WebAssembly build) finding a file of its own next to itself.
 */
const externalPackages = ['@duckdb/node-bindings', 'esbuild', 'gpt-tokenizer', 'quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'];

/**
 * The bundle of the TypeScript worker module `moduleUrl`, if one was built from exactly the files
 * it would be built from now; undefined otherwise (see ready-bundle.mjs, which bin/srag.js shares).
 */
export const readyWorkerBundle: (moduleUrl: URL) => URL | undefined = readyBundle;

/**
 * Makes sure a bundle of `moduleUrl` is ready for `startWorker` (and, for the CLI's own module, for
 * bin/srag.js): builds one with esbuild when the sources changed since the last (a second or so,
 * once), and otherwise only checks. A worker that transpiles its TypeScript through tsx takes most
 * of a second to answer; a bundle, a fraction. Never fails: without a bundle the worker (or the
 * CLI) falls back to tsx.
 */
export async function prepareWorkerBundle(moduleUrl: URL, { packages = 'bundle' }: {
  /**
   * 'external' leaves every package to be imported at run time (the CLI: its commands load few
   * packages each, and bundling them took esbuild ~4.5 s where the sources alone take ~0.2 s).
   */
  packages?: 'bundle' | 'external';
} = {}): Promise<void> {
  // Built JavaScript (the installed package's dist/) runs as it is: nothing to bundle.
  if (!/\.[cm]?ts$/.test(moduleUrl.pathname) || readyWorkerBundle(moduleUrl)) return;
  try {
    const { build } = await import('esbuild');
    const entry = fileURLToPath(moduleUrl);
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      // Modules imported with import() (the tokenizer, srag_ask's DuckDB) become chunks loaded when first used.
      splitting: true,
      outdir: bundleCacheDirectory,
      entryNames: '[name]',
      outExtension: { '.js': '.mjs' },
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Regular expressions with \p{…} stay literals. For a Node target esbuild writes each as
      // `new RegExp(…)`, made again at every evaluation (~0.15 µs and an object each time): the
      // evidence check tests characters with them per word and per number.
      supported: { 'regexp-unicode-property-escapes': true },
      // Less to parse at every start; identifiers stay as written, so errors name what they name.
      minifyWhitespace: true,
      minifySyntax: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
      ...(packages === 'bundle' ? { external: externalPackages.flatMap((name) => [name, `${name}/*`]) } : {}),
      // Some bundled CommonJS packages call require().
      banner: { js: `import { createRequire as __sragCreateRequire } from 'node:module'; const require = __sragCreateRequire(${importMetaUrl});` },
      plugins: [duckdbApiPlugin, ...(packages === 'external' ? [bundledPackagesPlugin] : []), sourceLocationPlugin],
    });
    const inputs: Manifest['inputs'] = {};
    for (const input of Object.keys(result.metafile.inputs)) {
      const path = resolve(input);
      const info = statSync(path);
      inputs[path] = { size: info.size, modified: info.mtimeMs, hash: hashFile(path) };
    }
    const name = basename(entry).replace(/\.[cm]?ts$/, '');
    const digest = createHash('sha256');
    for (const file of result.outputFiles) digest.update(file.path).update(file.contents);
    // Each build gets a directory of its own: a process still running an older one keeps its chunks.
    const directory = `${name}-${digest.digest('hex').slice(0, 16)}`;
    mkdirSync(join(bundleCacheDirectory, directory), { recursive: true });
    for (const file of result.outputFiles) writeAtomically(join(bundleCacheDirectory, directory, relative(bundleCacheDirectory, file.path)), file.text);
    writeAtomically(bundleManifestFile(moduleUrl), JSON.stringify({ bundle: join(directory, `${name}.mjs`), inputs } satisfies Manifest));
  } catch {
    // No bundle (no esbuild, a read-only install): the worker runs its TypeScript through tsx.
  }
}

/**
 * `@duckdb/node-api` is carried in the bundle (its native library stays a package, see below): `require` of its 181 files cost ~135 ms of CPU at every start of a command that opens a
 * database (and of every DuckDB worker), two thirds of it resolving, reading and wrapping each file;
 * bundled, ~65 ms, most of it loading the native library. The sources load it with
 * `createRequire(import.meta.url)` (see duckdb-node-api.ts), which esbuild cannot follow; in the
 * bundle that call becomes a plain `require`, which it bundles. Should the call be written otherwise
 * one day, the file is left as it is and the package is loaded at run time as before (slower, not
 * wrong; tests/project/bundle-packages.test.ts notices).
 */
const duckdbApiPlugin: Plugin = {
  name: 'srag-bundled-duckdb-api',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]duckdb[\\/]duckdb-node-api\.ts$/ }, ({ path }) => {
      const contents = readFileSync(path, 'utf8');
      const loaded = `createRequire(${importMetaUrl})('@duckdb/node-api')`;
      if (!contents.includes(loaded)) return undefined;
      return { contents: contents.replace(loaded, "require('@duckdb/node-api')"), loader: 'ts' };
    });
  },
};

/**
 * The packages the CLI's bundle carries (with what they import), where `packages: 'external'` would
 * load each at run time: `@duckdb/node-api` (see above) and the small pure-JavaScript ones a
 * command loads at every start. Each file of a package loaded at run time is found, read and
 * compiled on its own (a CommonJS one imported from an ES module is parsed once more for the names
 * it exports): loading the CLI and `srag ingest`'s modules took 174–235 ms of CPU with only
 * `@duckdb/node-api` carried, 130–175 ms with these too (8 runs each); `@duckdb/node-bindings`
 * (the JavaScript that picks the native library for the platform) and what it imports saved
 * another ~10 ms (114–179 against 114–214 ms). The rest — large, loaded by few commands (the
 * server's, the MCP server's, the document parsers, the tokenizer), or finding files of their own
 * next to themselves — stay packages, and so does each platform's native library
 * (`@duckdb/node-bindings-linux-x64/duckdb.node`, …), which only `require` can load.
 */
const bundledPackages = new Set(['@duckdb/node-api', '@duckdb/node-bindings', 'commander', 'p-limit', 'tinyglobby', 'htmlparser2', 'cli-progress', '@noble/hashes']);

const bundledPackagesPlugin: Plugin = {
  name: 'srag-bundled-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      if (isAbsolute(path) || path.startsWith('node:')) return undefined;
      const name = path.split('/').slice(0, path.startsWith('@') ? 2 : 1).join('/');
      if (name.startsWith('@duckdb/node-bindings-')) return { path, external: true };
      // What a carried package imports is carried with it.
      const fromCarriedPackage = importer.includes(`${sep}node_modules${sep}`);
      return fromCarriedPackage || bundledPackages.has(name) ? undefined : { path, external: true };
    });
  },
};

/** Spelled in parts so that this file, bundled itself, keeps it. */
const importMetaUrl = ['import', 'meta', 'url'].join('.');

/**
 * A module that finds files next to itself (`new URL('../../prompts/', import.meta.url)`) must
 * find them from its source location, not from the bundle's: each source's `import.meta.url` is
 * replaced by that source's own URL.
 */
const sourceLocationPlugin: Plugin = {
  name: 'srag-source-location',
  setup(builder) {
    builder.onLoad({ filter: /\.[cm]?[jt]s$/ }, ({ path }) => {
      if (path.includes(`${sep}node_modules${sep}`)) return undefined;
      const contents = readFileSync(path, 'utf8');
      if (!contents.includes(importMetaUrl)) return undefined;
      return { contents: contents.replaceAll(importMetaUrl, JSON.stringify(pathToFileURL(path).href)), loader: /\.[cm]?ts$/.test(path) ? 'ts' : 'js' };
    });
  },
};

/** Two processes may build at once; each file appears whole or not at all. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
