// npm run bench:page -- [--loads 10]
//
// srag serve's page (issue 39): the bytes of its one script — what each package weighs in it, the
// chart library's share, gzipped — and how long headless Chromium (/usr/bin/chromium) takes to
// show it over a small database (cities.csv imported: no model needed), from navigation to the
// first records on screen, median and worst of `--loads` loads after one warm-up (whose time, the
// server building the script in a checkout, is printed apart).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { importCommand } from '../node/cli/import-command.ts';
import { startServe } from '../node/serve/start-serve.ts';
import { buildPageScript } from '../serve-page/build-page.mjs';
import { repositoryRoot } from '../tests/helpers/run-srag.ts';

const { values: options } = parseArgs({ options: { loads: { type: 'string', default: '10' } } });
const loads = Number(options.loads);

const { text, metafile } = await buildPageScript();
const weights = new Map<string, number>();
for (const [input, { bytesInOutput }] of Object.entries(Object.values(metafile.outputs)[0]!.inputs)) {
  const inPackage = input.split('node_modules/').at(-1)!;
  const group = input.includes('node_modules/') ? inPackage.split('/').slice(0, inPackage.startsWith('@') ? 2 : 1).join('/') : input.split('/').slice(0, 2).join('/');
  weights.set(group, (weights.get(group) ?? 0) + bytesInOutput);
}
const chartLibrary = [...weights].filter(([group]) => group === '@observablehq/plot' || group.startsWith('d3-') || group === 'isoformat' || group === 'interval-tree-1d').reduce((sum, [, bytes]) => sum + bytes, 0);
console.log(`page script: ${Buffer.byteLength(text)} bytes minified, ${gzipSync(text).length} gzipped; the chart library (Observable Plot and its d3 modules) ${chartLibrary} bytes of it`);
for (const [group, bytes] of [...weights].sort((a, b) => b[1] - a[1])) console.log(`  ${group.padEnd(28)} ${bytes}`);

const directory = mkdtempSync(join(tmpdir(), 'srag-bench-page-'));
const database = join(directory, 'page.duckdb');
const previous = process.cwd();
process.chdir(repositoryRoot);
const imported = await importCommand('examples/cities/cities.csv', { db: database });
process.chdir(previous);
if (imported !== 0) throw new Error('the import of examples/cities/cities.csv failed');
const server = await startServe({ db: database, port: 0, host: '127.0.0.1', directory: repositoryRoot, environment: { OPENAI_API_KEY: 'sk-bench-not-a-real-key-0000' } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  /** One load in a fresh context (nothing cached): until the load event, and until the first records are on screen. */
  const timeOneLoad = async (): Promise<{ loaded: number; shown: number; requests: string }> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const started = performance.now();
    await page.goto(`${server.url}/`);
    await page.waitForFunction("document.getElementById('records-count')?.textContent !== ''");
    const shown = performance.now() - started;
    const timings = await page.evaluate(`JSON.stringify({ loaded: performance.getEntriesByType('navigation')[0].loadEventEnd, requests: performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname + ' ' + Math.round(entry.duration) + ' ms').join(', ') })`) as string;
    await page.close();
    return { ...JSON.parse(timings) as { loaded: number; requests: string }, shown };
  };
  const first = await timeOneLoad();
  console.log(`first load (the server builds the script in a checkout): records on screen after ${first.shown.toFixed(0)} ms`);
  const runs: Array<{ loaded: number; shown: number; requests: string }> = [];
  for (let index = 0; index < loads; index += 1) runs.push(await timeOneLoad());
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(0);
  const worst = (values: number[]) => Math.max(...values).toFixed(0);
  console.log(`${loads} loads, nothing cached: load event median ${median(runs.map((run) => run.loaded))} ms (worst ${worst(runs.map((run) => run.loaded))}), first records on screen median ${median(runs.map((run) => run.shown))} ms (worst ${worst(runs.map((run) => run.shown))})`);
  console.log(`the requests of the last load: ${runs.at(-1)!.requests}`);
} finally {
  await browser.close();
  await server.close();
  rmSync(directory, { recursive: true, force: true });
}
