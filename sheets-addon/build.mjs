/**
 * Builds the Google Sheets add-on into sheets-addon/dist/ (Code.js, appsscript.json, Sidebar.html, Picker.html)
 * for the Apps Script V8 runtime: `npm run build:sheets`.
 *
 * - The bundle is one closure (esbuild, IIFE) in which `Promise` is bound to SyncPromise and every
 *   async function is lowered to a generator driven through it, so core's async functions settle
 *   before the Apps Script entry point returns (see src/runtime/sync-promise.ts).
 * - Apps Script finds handlers and custom functions only as top-level function declarations, and
 *   Sheets reads a custom function's help from its JSDoc (which a bundler drops): the list in
 *   src/global-functions.ts, read from the built bundle, becomes one documented wrapper each.
 * - prompts/*.md are inlined with esbuild's text loader: the same texts `srag` reads from disk.
 * - records-sql (the SQL engine behind =SRAG_ASK) is bundled on its own and minified: it is a fifth
 *   of the add-on's code and Apps Script parses the whole file on every call. Its failures reach the
 *   user as SragErrors whose messages need no stack; tests/records-sql runs its source.
 */
import { build } from 'esbuild';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import vm from 'node:vm';

const addonDirectory = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.dirname(addonDirectory);
const promptsDirectory = path.join(repositoryRoot, 'prompts');
const defaultDistDirectory = path.join(addonDirectory, 'dist');
const recordsSqlEntry = path.join(repositoryRoot, 'records-sql', 'index.ts');

/** `import texts from 'srag:prompt-texts'`: every prompts/*.md (but the README) by file name. */
const promptTextsPlugin = {
  name: 'srag-prompt-texts',
  setup(builder) {
    builder.onResolve({ filter: /^srag:prompt-texts$/ }, () => ({ path: 'prompt-texts', namespace: 'srag-prompts' }));
    builder.onLoad({ filter: /.*/, namespace: 'srag-prompts' }, async () => {
      const files = (await readdir(promptsDirectory)).filter((file) => file.endsWith('.md') && file !== 'README.md').sort();
      const imports = files.map((file, index) => `import prompt${index} from ${JSON.stringify(path.join(promptsDirectory, file))};`);
      const entries = files.map((file, index) => `${JSON.stringify(file.slice(0, -3))}: prompt${index}`);
      return { contents: `${imports.join('\n')}\nexport default { ${entries.join(', ')} };`, loader: 'js', resolveDir: promptsDirectory, watchFiles: files.map((file) => path.join(promptsDirectory, file)) };
    });
  },
};

/** Imports of records-sql/index.ts read the engine bundled before the add-on (`SragRecordsSql`). */
const recordsSqlPlugin = {
  name: 'srag-records-sql',
  setup(builder) {
    builder.onResolve({ filter: /records-sql[\\/]index\.ts$/ }, (request) => {
      const resolved = path.resolve(request.resolveDir, request.path);
      return resolved === recordsSqlEntry ? { path: 'records-sql', namespace: 'srag-records-sql' } : undefined;
    });
    builder.onLoad({ filter: /.*/, namespace: 'srag-records-sql' }, () => ({ contents: 'module.exports = SragRecordsSql;', loader: 'js' }));
  },
};

/**
 * Google documents Apps Script's V8 runtime as "modern ECMAScript" without naming a version, so the
 * bundle relies on ES2020's built-ins and nothing newer (tests run it in a realm without them), and
 * its syntax is lowered a step further to ES2019, which costs nothing. Async functions are lowered
 * so SyncPromise drives them. esbuild lowers syntax only: a built-in newer than ES2020 that a
 * dependency calls is pointed at a small stand-in from src/compatibility/ (`define` + `inject`).
 */
const appsScriptTarget = {
  target: 'es2019',
  supported: { 'async-await': false, 'async-generator': false, 'for-await': false },
};
const es2020BuiltIns = {
  define: { 'Object.hasOwn': 'objectHasOwn' },
  inject: [path.join(addonDirectory, 'src/compatibility/object-has-own.ts')],
};

async function bundle(options) {
  const result = await build({ bundle: true, write: false, charset: 'utf8', legalComments: 'none', logLevel: 'warning', ...options });
  return result.outputFiles[0].text;
}

function jsDocFor(entry) {
  const lines = ['/**', ` * ${entry.description}`];
  if (entry.parameters.length) lines.push(' *');
  for (const parameter of entry.parameters) {
    const name = parameter.optional ? `[${parameter.name}]` : parameter.name;
    lines.push(` * @param {${parameter.type ?? '*'}} ${name}${parameter.description ? ` ${parameter.description}` : ''}`);
  }
  if (entry.returns) lines.push(` * @return ${entry.returns}`);
  if (entry.customFunction) lines.push(' * @customfunction');
  lines.push(' */');
  return lines.join('\n');
}

/** The Drive API, which reads Drive links in the Documents sheet. */
const driveApiPrefix = 'https://www.googleapis.com/drive/v3/';

/**
 * A versioned deployment needs the manifest's `urlFetchWhitelist` (a bound script or a test
 * deployment does not, and then reaches any endpoint). Each prefix must be https with a full
 * domain and a path; a leading `*.` covers subdomains. The Drive API is added to the list.
 */
function checkedAllowlist(prefixes) {
  for (const prefix of prefixes) {
    if (!/^https:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/\S*$/i.test(prefix)) {
      throw new Error(`build:sheets: --allow-url ${JSON.stringify(prefix)} must be an https:// URL prefix with a full domain and a path, e.g. https://api.openai.com/v1/`);
    }
  }
  return prefixes;
}

/**
 * Builds into `distDirectory` (default sheets-addon/dist); tests build into their own directories.
 * `urlFetchAllowlist`: the model endpoints a versioned deployment may call (`--allow-url`).
 */
export async function buildSheetsAddon({ distDirectory = defaultDistDirectory, urlFetchAllowlist = [] } = {}) {
  const allowlist = checkedAllowlist(urlFetchAllowlist);
  const [syncPromise, recordsSql, main, batchDriver, sidebarTemplate, picker, manifest] = await Promise.all([
    bundle({ entryPoints: [path.join(addonDirectory, 'src/runtime/sync-promise.ts')], format: 'iife', globalName: 'SragSyncPromise', platform: 'neutral', ...appsScriptTarget }),
    bundle({ entryPoints: [recordsSqlEntry], format: 'iife', globalName: 'SragRecordsSql', platform: 'neutral', minify: true, ...appsScriptTarget, ...es2020BuiltIns }),
    bundle({
      entryPoints: [path.join(addonDirectory, 'src/main.ts')],
      format: 'iife',
      globalName: 'SragAddon',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['import', 'default'],
      loader: { '.md': 'text' },
      plugins: [promptTextsPlugin, recordsSqlPlugin],
      ...appsScriptTarget,
      ...es2020BuiltIns,
      define: { ...es2020BuiltIns.define, SRAG_URL_FETCH_ALLOWLIST: JSON.stringify(allowlist) },
    }),
    bundle({ entryPoints: [path.join(addonDirectory, 'src/sidebar/batch-driver.ts')], format: 'iife', globalName: 'SragSidebar', platform: 'browser', target: 'es2018' }),
    readFile(path.join(addonDirectory, 'src/sidebar/sidebar.html'), 'utf8'),
    readFile(path.join(addonDirectory, 'src/drive-picker/picker.html'), 'utf8'),
    readFile(path.join(addonDirectory, 'appsscript.json'), 'utf8'),
  ]);

  const closure = [
    'var SragAddon = (function () {',
    syncPromise.trim(),
    '  // Everything below sees SyncPromise as Promise: core\'s async functions settle synchronously.',
    '  var Promise = SragSyncPromise.SyncPromise;',
    recordsSql.trim(),
    main.trim(),
    '  return SragAddon;',
    '})();',
  ].join('\n');

  // Read the entry-point list from the bundle itself; loading it must need no Apps Script service.
  const exported = vm.runInNewContext(`${closure}\nJSON.stringify({ list: SragAddon.globalFunctions, kinds: Object.fromEntries(Object.keys(SragAddon).map((key) => [key, typeof SragAddon[key]])) })`, {}, { filename: 'Code.js' });
  const { list, kinds } = JSON.parse(exported);
  for (const entry of list) {
    if (kinds[entry.name] !== 'function') throw new Error(`build:sheets: ${entry.name} is listed in global-functions.ts but src/main.ts exports no such function`);
  }
  const wrappers = list.map((entry) => {
    const names = entry.parameters.map((parameter) => parameter.name);
    return `${jsDocFor(entry)}\nfunction ${entry.name}(${names.join(', ')}) {\n  return SragAddon.${entry.name}(${names.join(', ')});\n}`;
  });

  const code = [
    '// srag — Google Sheets add-on. Built by sheets-addon/build.mjs from sheets-addon/src and core/; do not edit.',
    '// Source: the srag repository. The functions below are the entry points Apps Script calls.',
    '',
    wrappers.join('\n\n'),
    '',
    closure,
    '',
  ].join('\n');
  const sidebar = sidebarTemplate.replace('/* SRAG_BATCH_DRIVER */', () => batchDriver.trim());
  if (sidebar === sidebarTemplate) throw new Error('build:sheets: the sidebar template lost its /* SRAG_BATCH_DRIVER */ marker');

  await mkdir(distDirectory, { recursive: true });
  await Promise.all([
    writeFile(path.join(distDirectory, 'Code.js'), code),
    writeFile(path.join(distDirectory, 'appsscript.json'), `${JSON.stringify(withAllowlist(JSON.parse(manifest), allowlist), null, 2)}\n`),
    writeFile(path.join(distDirectory, 'Sidebar.html'), sidebar),
    writeFile(path.join(distDirectory, 'Picker.html'), picker),
  ]);
  return { code, sidebar, functions: list.map((entry) => entry.name) };
}

function withAllowlist(manifest, allowlist) {
  return allowlist.length ? { ...manifest, urlFetchWhitelist: [...allowlist, driveApiPrefix] } : manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({ options: { 'allow-url': { type: 'string', multiple: true } } });
    const { code, functions } = await buildSheetsAddon({ urlFetchAllowlist: values['allow-url'] ?? [] });
    process.stdout.write(`sheets-addon/dist: Code.js (${Math.round(code.length / 1024)} KB, ${functions.length} entry points), appsscript.json, Sidebar.html, Picker.html\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
