import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { friendlyPath } from '../../node/runtime/friendly-path.ts';
import { startServe, type RunningServe } from '../../node/serve/start-serve.ts';
import { hotelsWithGaps } from '../helpers/hotels-with-gaps.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';
import { buildPageDatabase, pageCorpora, pageQuestions, type PageDatabase } from './page-database.ts';

// The page an analyst opens, in headless Chromium, over the README's multi-table database (built
// once, in this process: see page-database.ts), held to the CLI's answers to the same questions;
// and a second server over an empty database, whose page leads to its own ingest form.

const chromiumPath = '/usr/bin/chromium';
const skip = process.env.SRAG_SKIP_BROWSER === '1';
// Screenshots go to test-artifacts/ on every run; the README's copies in docs/images/ are refreshed
// only on request (SRAG_UPDATE_SCREENSHOTS=1), so a test run never dirties tracked files.
const screenshotDirectories = process.env.SRAG_UPDATE_SCREENSHOTS === '1' ? ['docs/images', 'test-artifacts'] : ['test-artifacts'];

let standIn: LlmStandIn;
let built: PageDatabase;
let server: RunningServe;
let emptyServer: RunningServe;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
/** The body of every POST /query the page sent, in order. */
const queries: Array<Record<string, unknown>> = [];
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });

/** A screenshot of the page as it is; `docs: false` keeps it out of docs/images (for looking at, not for the README). */
async function screenshot(name: string, { docs = true } = {}): Promise<void> {
  for (const directory of docs ? screenshotDirectories : ['test-artifacts']) {
    mkdirSync(directory, { recursive: true });
    await page.screenshot({ path: path.join(directory, name) });
  }
}

/** Asks as a person does, by keyboard: the question typed, Enter pressed; the JSON the page received. */
async function ask(question: string): Promise<Record<string, unknown>> {
  await page.getByLabel('Question').fill(question);
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.url().endsWith('/query')),
    page.getByLabel('Question').press('Enter'),
  ]);
  const body = await response.json() as Record<string, unknown>;
  if (response.ok()) await expect.poll(() => page.textContent('#answer .answer')).toBe(body.answer);
  return body;
}

/** An element as the tests read it in the page (the root project has no DOM types). */
interface Shown {
  textContent: string | null;
  querySelectorAll(selector: string): ArrayLike<Shown>;
}

/** The rows of a table on the page as their cells' text. */
function tableTexts(selector: string): Promise<string[][]> {
  return page.locator(`${selector} tbody tr`).evaluateAll((rows) => (rows as unknown as Shown[]).map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent ?? '')));
}

/** The table the records are shown of. */
const browsed = () => page.getByLabel('Records of', { exact: true });

/** A downloaded file's bytes, from clicking `selector`. */
async function downloaded(click: () => Promise<void>): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFileSync((await download.path())!);
}

/** The rows DuckDB reads from a Parquet file. */
async function parquetRows(bytes: Buffer): Promise<unknown[][]> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'srag-page-parquet-')), 'rows.parquet');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, bytes);
  const instance = await DuckDBInstance.create(':memory:');
  try {
    return (await (await instance.connect()).runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowsJS();
  } finally {
    instance.closeSync();
  }
}

describe.skipIf(skip)('the srag serve page in headless Chromium', () => {
  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(`Chromium is not installed at ${chromiumPath}: install it with \`apt-get update && apt-get install -y chromium\` (as root), or set SRAG_SKIP_BROWSER=1 to skip this test explicitly`);
    }
    const hotels = hotelsWithGaps();
    standIn = await startLlmStandIn({ corpora: pageCorpora(hotels) });
    built = await buildPageDatabase(standIn, hotels);
    server = await startServe({ db: built.database, port: 0, host: '127.0.0.1', directory: repositoryRoot, environment: environment() });
    const empty = path.join(mkdtempSync(path.join(tmpdir(), 'srag-serve-empty-')), 'empty.duckdb');
    emptyServer = await startServe({ db: empty, port: 0, host: '127.0.0.1', directory: repositoryRoot, environment: environment() });
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/query')) queries.push(request.postDataJSON() as Record<string, unknown>);
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await emptyServer?.close();
    await standIn?.close();
  });

  it('leads an empty database to its own ingest form, and shows the records once the job is done', async () => {
    await page.goto(`${emptyServer.url}/`);
    await expect.poll(() => page.isVisible('#empty-database')).toBe(true);
    expect(await page.isDisabled('#ask-button')).toBe(true);
    await page.click('#go-to-ingest');
    expect(await page.locator(':focus').getAttribute('id')).toBe('ingest-paths');
    await page.getByLabel('Documents (paths or globs on the server, one per line)').fill('examples/guesthouses/docs');
    await page.getByLabel('Schema file on the server').fill('examples/guesthouses/schema.json');
    const ingestBodies: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/ingest')) ingestBodies.push(request.postDataJSON());
    });
    // The estimate first: what the job would send and cost, and nothing sent or started.
    await page.getByRole('button', { name: 'Estimate the cost' }).click();
    await expect.poll(() => page.textContent('#ingest-estimate-result'))
      .toMatch(/^guesthouses: 8 documents to extract in \d+ calls?, [\d,]+ prompt and [\d,]+ completion tokens, (about \$\d+\.\d{4} with \S+|no price known for \S+)\. Nothing was sent\.$/);
    expect(await page.locator('#jobs > *').count()).toBe(0);
    await page.getByLabel('Spend at most (USD, optional)').fill('5');
    await page.click('#ingest button[type=submit]');
    await expect.poll(() => ingestBodies.length).toBe(2);
    expect(ingestBodies).toEqual([
      { paths: ['examples/guesthouses/docs'], schema: 'examples/guesthouses/schema.json', dryRun: true },
      { paths: ['examples/guesthouses/docs'], schema: 'examples/guesthouses/schema.json', maxCost: 5 },
    ]);
    await expect.poll(() => page.textContent('#jobs'), { timeout: 60_000 }).toContain('guesthouses: done, 8/8 documents');
    await expect.poll(() => page.textContent('#records-count')).toBe('1–8 of 8');
    expect(await page.isVisible('#empty-database')).toBe(false);
    expect(await page.isDisabled('#ask-button')).toBe(false);
  }, 90_000);

  it('opens on all tables, shows a table made from documents first, and lists every table with what made it', async () => {
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.textContent('#records-count')).toBe('1–8 of 8');
    expect(await page.getByLabel('from').inputValue()).toBe('');
    expect(await page.locator('#ask-table option:checked').textContent()).toBe('all tables (automatic)');
    // Not cities, first in the alphabet: a table made from documents, whose values open their quotes.
    expect(await browsed().inputValue()).toBe('guesthouses');
    const tables = await page.textContent('#tables-list');
    expect(tables).toContain('cities — cities, imported from examples/cities/cities.csv (no documents, no evidence)');
    expect(tables).toContain('world_cup_tournament — World Cup Tournament, made by srag_extract');
    expect(tables).toContain('guesthouses__rooms');
    expect(tables).toContain('items of guesthouses');
    expect(await page.isHidden('#banner')).toBe(true);
  });

  it('names its main controls for assistive technology and reaches them by keyboard in reading order', async () => {
    const controls = [
      page.getByRole('textbox', { name: 'Question' }),
      page.getByRole('combobox', { name: 'from' }),
      page.getByRole('button', { name: 'Ask', exact: true }),
      page.getByRole('combobox', { name: 'Records of' }),
      page.getByRole('textbox', { name: 'Documents (paths or globs on the server, one per line)' }),
      page.getByRole('textbox', { name: 'Schema file on the server' }),
    ];
    for (const control of controls) expect(await control.count()).toBe(1);
    await page.getByLabel('Question').focus();
    const focused = () => page.evaluate('document.activeElement.id');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('ask-table');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('ask-button');
    // A value of the records is a button: Tab reaches it, Enter opens its evidence.
    const value = page.locator('#records button.cell').first();
    await value.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#evidence dl');
    expect(await page.textContent('#evidence dl')).toContain(`attribute${(await value.getAttribute('data-attribute'))!}`);
  });

  it('answers each question as srag ask does: the same answer, tables, joins, SQL, rows and coverage, with no table sent', async () => {
    for (const [name, question] of Object.entries(pageQuestions) as Array<[keyof typeof pageQuestions, string]>) {
      queries.length = 0;
      const { id, usage, ...answer } = await ask(question);
      const { usage: _cliUsage, ...cli } = built.cliAnswers[name];
      expect(answer, question).toEqual(cli);
      expect(queries).toEqual([{ question }]);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      // The CLI asked first: the page's answer comes from the response cache, and says so.
      expect(usage).toMatchObject({ calls: 0 });
      expect(await page.textContent('#answer .path')).toContain('from cache (no model call)');
      expect(await page.textContent('#answer pre.sql')).toBe(cli.sql);
      const imported = (table: string) => (table === 'cities' ? `${table} (imported from examples/cities/cities.csv)` : table === 'world_cup_tournament' ? `${table} (made by srag_extract)` : table);
      const tables = cli.tables as string[];
      const joins = (cli.joins as Array<Record<string, string>>).map((link) => `${link.table}.${link.column} = ${link.otherTable}.${link.otherColumn}`);
      expect(await page.textContent('#answer .tables')).toBe(`${tables.length === 1 ? 'Table' : 'Tables'}: ${tables.map(imported).join(', ')}${joins.length ? `; join ${joins.join(', ')}` : ''}`);
      const shown = (await tableTexts('#result')).map((row) => row.slice(1));
      expect(shown).toEqual((cli.rows as unknown[][]).map((row) => row.map((value) => (value === null ? 'NULL' : String(value)))));
    }
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('says an answer\'s value with its unit and its coverage in the CLI\'s words, a dropped value one click from its evidence', async () => {
    const answer = await ask(pageQuestions.parisPrice);
    expect(await page.textContent('#answer .value')).toBe('215.4 USD');
    const note = await page.textContent('#answer .coverage');
    expect(note).toMatch(/^Coverage: price_per_night: computed over 5 of the 10 hotels the query selects; 3 do not state it, 2 values were dropped as unsupported or invalid \(see its evidence in (olive-square-hotel\.txt|opal-tower-hotel\.html)\)\.$/);
    expect(await page.textContent('#result th:nth-child(2)')).toBe('avg(price_per_night) (USD)');
    await page.click('#answer .coverage button');
    await expect.poll(() => page.textContent('#evidence dl')).toMatch(/statusun(supported|valid)|statusinvalid/);
    const dropped = (answer.coverage as Array<{ column: string; droppedExample?: string }>).find((column) => column.column === 'price_per_night')!.droppedExample!;
    expect(await page.textContent('#evidence h3')).toBe(friendlyPath(dropped));
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot('serve-ask.png');
    // The records the answer rests on are the ten the coverage counts.
    await page.click('#trace-answer');
    await expect.poll(() => page.textContent('#trace .trace-summary')).toBe('The 10 records the answer was computed from (the rows its FROM and WHERE keep).');
    expect(await page.locator('#trace-records tbody tr').count()).toBe(10);
  });

  it('draws a group-by as a bar chart, the table one toggle away, and opens a bar\'s group of records with each item\'s evidence', async () => {
    await ask(pageQuestions.roomsPerStar);
    const bars = page.locator('#chart g[aria-label="bar"] rect');
    await expect.poll(() => bars.count()).toBe(3);
    expect(await page.getAttribute('#chart svg', 'aria-label')).toBe('Bar chart of rooms by star_rating');
    expect(await page.isHidden('#result')).toBe(true);
    await page.click('#show-table');
    expect(await page.isVisible('#result')).toBe(true);
    expect(await page.isHidden('#chart')).toBe(true);
    await page.click('#show-chart');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot('serve-chart.png');
    await bars.nth(1).click();
    await expect.poll(() => page.textContent('#trace .trace-summary')).toBe('The 9 records of this row\'s group.');
    expect(await page.textContent('#trace-heading')).toBe('Records behind result row 2 (star_rating = 3, rooms = 9)');
    const headers = await page.locator('#trace-records th').allTextContents();
    const star = headers.indexOf('star_rating (guesthouses g)');
    const rows = await tableTexts('#trace-records');
    expect(rows).toHaveLength(9);
    expect(new Set(rows.map((row) => row[star]))).toEqual(new Set(['3']));
    // An item's value opens its own quote, by keyboard too: the button knows the item's place in its list.
    const price = page.locator('#trace-records button.cell[data-attribute^="price_per_night["]').first();
    const attribute = (await price.getAttribute('data-attribute'))!;
    await price.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#document-text mark', { timeout: 10_000 });
    expect(await page.textContent('#evidence dl')).toContain(`attribute${attribute}`);
    expect(await page.textContent('#evidence dl')).toContain('statussupported');
    await page.evaluate("document.getElementById('trace').scrollIntoView()");
    await screenshot('serve-trace.png');
  });

  it('draws a series over the years as a line, and opens the one record a point was read from', async () => {
    const answer = await ask(pageQuestions.goalsByYear);
    const points = page.locator('#chart g[aria-label="dot"] circle');
    await expect.poll(() => points.count()).toBe((answer.rows as unknown[]).length);
    expect(await page.locator('#chart g[aria-label="line"] path').count()).toBe(1);
    expect(await page.getAttribute('#chart svg', 'aria-label')).toBe('Line chart of goals_scored by year');
    expect(await page.locator('#chart g[aria-label="x-axis tick label"] text').allTextContents()).toContain('1950');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot('serve-line.png', { docs: false });
    const last = (answer.rows as Array<[number, number]>).length - 1;
    await points.nth(last).click();
    await expect.poll(() => page.textContent('#trace .trace-summary')).toBe('The 1 record this row was read from.');
    const [year, goals] = (answer.rows as Array<[number, number]>)[last]!;
    expect(await page.textContent('#trace-heading')).toBe(`Records behind result row ${last + 1} (year = ${year}, goals_scored = ${goals})`);
    const headers = await page.locator('#trace-records th').allTextContents();
    const [record] = await tableTexts('#trace-records');
    expect(record![headers.indexOf('year (world_cup_tournament)')]).toBe(String(year));
    expect(record![headers.indexOf('goals_scored (world_cup_tournament)')]).toBe(String(goals));
  });

  it('downloads the result and the records behind a row as CSV and Parquet, as DuckDB reads them back', async () => {
    await ask(pageQuestions.roomsPerStar);
    const result = await downloaded(() => page.click('#answer .downloads button:text-is("CSV")'));
    expect(result.toString('utf8').trim().split('\n')).toEqual(['star_rating,rooms', '2,4', '3,9', '4,6']);
    const parquet = await downloaded(() => page.click('#answer .downloads button:text-is("Parquet")'));
    expect(parquet.subarray(0, 4).toString()).toBe('PAR1');
    expect(await parquetRows(parquet)).toEqual([[2n, 4n], [3n, 9n], [4n, 6n]]);
    await page.click('#show-table');
    await page.getByRole('button', { name: 'the records behind result row 3' }).click();
    await expect.poll(() => page.textContent('#trace .trace-summary')).toBe('The 6 records of this row\'s group.');
    const records = (await downloaded(() => page.click('#trace .downloads button:text-is("CSV")'))).toString('utf8').trim().split('\n');
    expect(records).toHaveLength(7);
    const header = records[0]!.split(',');
    expect(header.slice(0, 2)).toEqual(['g._source', 'g.name']);
    expect(records.slice(1).every((line) => line.split(',')[header.indexOf('g.star_rating')] === '4')).toBe(true);
    const recordsParquet = await parquetRows(await downloaded(() => page.click('#trace .downloads button:text-is("Parquet")')));
    expect(recordsParquet).toHaveLength(6);
  });

  it('browses an imported table saying it has no evidence, a table made by srag_extract with its quotes, and a child table\'s items with theirs', async () => {
    await browsed().selectOption('cities');
    await expect.poll(() => page.textContent('#records-note')).toContain('Imported from examples/cities/cities.csv with srag import: its values were taken as they are, with no documents or quotes behind them');
    expect(await page.locator('#records button.cell').count()).toBe(0);
    expect(await page.textContent('#records-count')).toBe('1–14 of 14');

    await browsed().selectOption('world_cup_tournament');
    await expect.poll(() => page.textContent('#records-note')).toContain('Made by srag_extract.');
    await page.locator('#records button.cell[data-attribute="champion"]').first().click();
    await page.waitForSelector('#document-text mark', { timeout: 10_000 });
    expect(await page.textContent('#evidence dl')).toContain('tableworld_cup_tournament');

    await browsed().selectOption('guesthouses__rooms');
    await expect.poll(() => page.textContent('#records-note')).toContain('Each row is one item of the rooms a guesthouses document lists');
    await page.locator('#records button.cell[data-attribute="price_per_night[2]"]').first().click();
    await page.waitForSelector('#document-text mark', { timeout: 10_000 });
    expect(await page.textContent('#evidence dl')).toContain('attributeprice_per_night[2]');
    // A table wider than its box scrolls rather than being cut off.
    expect(await page.locator('#records-section .scroll').evaluate((box) => (globalThis as unknown as { getComputedStyle(element: unknown): { overflowX: string } }).getComputedStyle(box).overflowX)).toBe('auto');
    expect(pageErrors).toEqual([]);
  });

  it('answers a child table\'s value asked without its item with the items to name as data, each of which opens its evidence', async () => {
    // As the page asks: a coverage link names no table (the server finds the one holding the column),
    // a child table's cell names its table; the fix's choices become buttons (see fixChoices), and a
    // choice is asked again with the table of the documents (evidence-view.ts).
    const why = (parameters: Record<string, string>) => fetch(`${server.url}/why?${new URLSearchParams({ document: 'alfama-nest-guesthouse.md', ...parameters })}`);
    for (const asked of [{ attribute: 'price_per_night' }, { attribute: 'price_per_night', table: 'guesthouses__rooms' }] as Array<Record<string, string>>) {
      const response = await why(asked);
      const { error } = await response.json() as { error: { fix?: { kind: string; choices: string[] } } };
      expect(response.status, JSON.stringify(error)).toBe(400);
      expect(error.fix).toEqual({ kind: 'name-item', choices: ['rooms[1].price_per_night', 'rooms[2].price_per_night', 'rooms[3].price_per_night'] });
      const chosen = await why({ attribute: error.fix!.choices[0]!, ...(asked.table ? { table: 'guesthouses' } : {}) });
      expect(await chosen.json()).toMatchObject({ table: 'guesthouses__rooms', value: '85', status: 'supported', quote: 'Twin Room: USD 85 per night, sleeps 2' });
    }
  });

  it('turns an error\'s fix into choices that ask again, and clears the error when the next action succeeds', async () => {
    await page.getByLabel('Question').fill('What does xyzzy mean?');
    await page.getByLabel('Question').press('Enter');
    await expect.poll(() => page.isVisible('#banner')).toBe(true);
    expect(await page.textContent('#banner')).toContain('no table matches the words of the question');
    expect(await page.textContent('#answer')).toBe('No answer.');
    const choices = await page.locator('#banner button.choice').allTextContents();
    expect(choices).toEqual(expect.arrayContaining(['hotels', 'cities', 'guesthouses', 'world_cup_tournament']));
    queries.length = 0;
    await page.click('#banner button.choice:text-is("hotels")');
    await expect.poll(() => queries).toEqual([{ question: 'What does xyzzy mean?', table: 'hotels' }]);
    expect(await page.getByLabel('from').inputValue()).toBe('hotels');
    await expect.poll(() => page.textContent('#banner')).not.toContain('no table matches');
    await page.getByLabel('from').selectOption('');
    await ask(pageQuestions.spain);
    expect(await page.isHidden('#banner')).toBe(true);
    expect(await page.textContent('#answer .answer')).toBe('11');
  });
});
