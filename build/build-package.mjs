// `npm run build` (run by prepack): the JavaScript the installed package runs, in dist/.
//
//   dist/cli.js                   the CLI (bin/srag.js runs it when the TypeScript sources are absent)
//   dist/index.js                 the library entry, with declarations in dist/types/
//   dist/bridge-worker.js, dist/sql-session-worker.js, dist/quickjs-sandbox-worker.js, dist/worker-entry.js   the worker threads
//   dist/sandbox-process.js       the process generated SQL runs in
//   dist/serve-page.js            the script of srag serve's page (with the chart library), for the browser
//
// One esbuild run with code splitting: modules a command imports with import() become chunks
// loaded only when that command runs, so `srag --help` loads neither DuckDB nor the tokenizer.
// Packages stay external (installed as dependencies). In the repository, development runs the
// TypeScript sources as before (bin/srag.js through tsx, workers from a cached bundle).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const distDirectory = join(root, 'dist');

/** Source → the file it becomes in dist/ (the name every `new URL(…, import.meta.url)` to it is rewritten to). */
const entries = {
  cli: 'node/cli/main.ts',
  index: 'node/index.ts',
  'bridge-worker': 'node/sql-functions/llm-bridge/bridge-worker.ts',
  'sql-session-worker': 'node/sql-functions/harness/sql-session-worker.ts',
  'worker-entry': 'node/runtime/workers/worker-entry.mjs',
  'quickjs-sandbox-worker': 'node/runtime/code-sandbox/quickjs-sandbox-worker.ts',
  'sandbox-process': 'node/duckdb/sandbox/sandbox-process.ts',
};
const builtFile = new Map(Object.entries(entries).map(([name, source]) => [resolve(root, source), join(distDirectory, `${name}.js`)]));
// The page's script is built for the browser (serve-page/build-page.mjs), not as a Node entry.
builtFile.set(resolve(root, 'serve-page/src/main.ts'), join(distDirectory, 'serve-page.js'));

const importMetaUrl = ['import', 'meta', 'url'].join('.');
const relativeUrl = /new URL\((['"])(\.{1,2}\/[^'"]*)\1,\s*import\.meta\.url\)/g;

/**
 * Sources find workers and prompts next to themselves (`new URL('./bridge-worker.ts',
 * import.meta.url)`, `new URL('../../prompts/', …)`); in dist/ every module sits in one directory.
 * Each such URL is rewritten to where its target is in the package: a worker's built file, or the
 * same path from the package root (prompts/).
 */
const packageLocations = {
  name: 'srag-package-locations',
  setup(builder) {
    builder.onLoad({ filter: /\.[cm]?[jt]s$/ }, ({ path }) => {
      if (path.includes(`${sep}node_modules${sep}`)) return undefined;
      const contents = readFileSync(path, 'utf8');
      if (!contents.includes(importMetaUrl)) return undefined;
      const rewritten = contents.replace(relativeUrl, (whole, quote, target) => {
        const absolute = resolve(dirname(path), target);
        const location = builtFile.get(absolute) ?? join(root, relative(root, absolute));
        let url = relative(distDirectory, location).split(sep).join('/');
        if (!url.startsWith('.')) url = `./${url}`;
        if (target.endsWith('/')) url += '/';
        return `new URL(${JSON.stringify(url)}, ${importMetaUrl})`;
      });
      return { contents: rewritten, loader: /\.[cm]?ts$/.test(path) ? 'ts' : 'js' };
    });
  },
};

rmSync(distDirectory, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(entries).map(([name, source]) => [name, source])),
  bundle: true,
  splitting: true,
  outdir: distDirectory,
  chunkNames: '[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // \p{…} regular expressions stay literals, as in the checkout's bundle (see node/runtime/workers/worker-bundle.ts).
  supported: { 'regexp-unicode-property-escapes': true },
  packages: 'external',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [packageLocations],
});

// The page srag serve hands out: its script with the chart library, one file for the browser.
const { buildPageScript } = await import('../serve-page/build-page.mjs');
writeFileSync(join(distDirectory, 'serve-page.js'), (await buildPageScript()).text);

// Declarations for the library entry (and what it refers to), beside the bundle.
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'build/tsconfig.declarations.json')], { stdio: 'inherit' });

// The sources import each other as './x.ts'; declarations that a consumer's TypeScript reads name './x.js'.
for (const entry of readdirSync(join(distDirectory, 'types'), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/((?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*)\.([cm]?)ts(['"])/g, '$1.$2js$3'));
}
