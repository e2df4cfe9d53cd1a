import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { AppsScriptHost } from './helpers/apps-script-host/apps-script-host.ts';
import { buildBundleForTest, firstCell, corpusDocuments, preparedSpreadsheet, rangeValues, runSidebarBatch } from './helpers/sheets-fixtures.ts';

const hotels = corpusDocuments('examples/hotels');
const amberArch = hotels.find((document) => document.source === 'amber-arch-hotel.md')!;
const goldAmberArch = (JSON.parse(readFileSync('examples/hotels/gold/records.jsonl', 'utf8').split('\n')[0]!) as { values: Record<string, { value: unknown }> }).values;
const attributes = Object.keys(JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8')).properties as object);

let distDirectory: string;
let standIn: LlmStandIn;
/** One spreadsheet with extracted records, shared by the tests that only read it. */
let extracted: AppsScriptHost;

beforeAll(async () => {
  distDirectory = await buildBundleForTest();
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  extracted = new AppsScriptHost(distDirectory);
  await preparedSpreadsheet(extracted, { corpus: 'examples/hotels', baseUrl: standIn.url });
  await runSidebarBatch(extracted);
});

afterAll(async () => {
  await extracted.close();
  await standIn.close();
});

beforeEach(() => {
  standIn.reset();
  standIn.setOptions({ faultRate: 0, latencyMs: 0 });
});

async function withHost<T>(work: (host: AppsScriptHost) => Promise<T>): Promise<T> {
  const host = new AppsScriptHost(distDirectory);
  try {
    return await work(host);
  } finally {
    await host.close();
  }
}

describe('=SRAG_EXTRACT(text, schema_range)', () => {
  it('returns one row of typed values in the schema\'s attribute order', async () => {
    const row = await extracted.runCustomFunction<unknown[][]>('SRAG_EXTRACT', [amberArch.text, rangeValues(extracted, 'Schema')]);
    expect(row).toHaveLength(1);
    expect(row[0]).toEqual(attributes.map((attribute) => goldAmberArch[attribute]!.value ?? ''));
  });

  it('spends no tokens when the sheet recalculates: the reply comes from CacheService, then from the longer-lived copy once the cache has expired', async () => {
    const text = `${hotels[5]!.text}\n\nUpdated this week.`;
    const schema = rangeValues(extracted, 'Schema');
    const first = await extracted.runCustomFunction('SRAG_EXTRACT', [text, schema]);
    expect(standIn.countByKind()).toEqual({ 'extract-record': 1 });
    expect(await extracted.runCustomFunction('SRAG_EXTRACT', [text, schema])).toEqual(first);
    extracted.clock.offsetMilliseconds = 7 * 3_600_000;
    expect(await extracted.runCustomFunction('SRAG_EXTRACT', [text, schema])).toEqual(first);
    extracted.clock.offsetMilliseconds = 0;
    expect(standIn.requests).toHaveLength(1);
  });

  it('says in its cell what is wrong with a schema range that is not a schema table', async () => {
    const message = firstCell(await extracted.runCustomFunction<string[][]>('SRAG_EXTRACT', [amberArch.text, [['name', 'colour'], ['x', 'blue']]]));
    expect(message).toMatch(/^⚠ srag: the schema is not usable: the schema range needs a header row with attribute, type, description/);
  });
});

describe('=SRAG_ASK(question, records_range, [with_query])', () => {
  it('answers a count with the value, and the query it ran in the next column', async () => {
    const cells = await extracted.runCustomFunction('SRAG_ASK', ['How many hotels are in Spain?', rangeValues(extracted, 'Records')]);
    expect(cells).toEqual([[11, "SELECT COUNT(*) FROM hotels WHERE country = 'Spain'"]]);
  });

  it('spills a list answer as a table with its header row, the query beside the header', async () => {
    const cells = await extracted.runCustomFunction<unknown[][]>('SRAG_ASK', ['How many hotels are there in each city?', rangeValues(extracted, 'Records')]);
    expect(cells[0]).toEqual(["printf('%s: %d', city, COUNT(*))", "SELECT printf('%s: %d', city, COUNT(*)) FROM hotels GROUP BY city ORDER BY COUNT(*) DESC, city"]);
    expect(cells.slice(1).map((row) => row[1])).toEqual(cells.slice(1).map(() => ''));
    const gold = (readFileSync('examples/hotels/questions.jsonl', 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { question: string; gold: string[] })
      .find((entry) => entry.question === 'How many hotels are there in each city?')!).gold;
    expect(cells.slice(1).map((row) => row[0])).toEqual(gold);
  });

  it('gives the bare value when with_query is FALSE, for use inside other formulas', async () => {
    expect(await extracted.runCustomFunction('SRAG_ASK', ['How many hotels have a swimming pool and allow pets?', rangeValues(extracted, 'Records'), false])).toEqual([[expect.any(Number)]]);
  });

  it('counts only extracted rows when the range has a _status column', async () => {
    const range = rangeValues(extracted, 'Records');
    const status = range[0]!.indexOf('_status');
    const fewer = range.map((row, index) => (index > 0 && index <= 10 ? row.map((cell, column) => (column === status ? 'failed' : cell)) : row));
    const all = firstCell(await extracted.runCustomFunction<number[][]>('SRAG_ASK', ['How many hotels are in Spain?', range, false]));
    const some = firstCell(await extracted.runCustomFunction<number[][]>('SRAG_ASK', ['How many hotels are in Spain?', fewer, false]));
    expect(some).toBeLessThan(all);
  });

  it('says which Schema row to add and which menu item to run when the question needs a column the range lacks, not srag ask\'s option', async () => {
    const range = rangeValues(extracted, 'Records');
    const price = range[0]!.indexOf('price_per_night');
    const withoutPrice = range.map((row) => row.filter((_cell, column) => column !== price));
    const message = firstCell(await extracted.runCustomFunction<string[][]>('SRAG_ASK', ['How many hotels charge less than $150 per night?', withoutPrice]));
    expect(message).toBe('⚠ srag: "How many hotels charge less than $150 per night?" needs an attribute the table "hotels" does not hold: price_per_night'
      + ' — add a row for each to the Schema sheet (attribute, type, description) and run Extensions › srag › Extract all rows, which extracts every document again for the new schema');
  });
});

describe('=SRAG_ASK when the records change', () => {
  const question = 'How many hotels charge less than $150 per night?';
  type Range = ReturnType<typeof rangeValues>;

  /** The Records range with the first `count` rows not yet extracted (status queued, values empty). */
  function withRowsPending(range: Range, count: number): Range {
    const status = range[0]!.indexOf('_status');
    return range.map((row, index) => (index > 0 && index <= count ? row.map((cell, column) => (column === 0 ? cell : column === status ? 'queued' : '')) : row));
  }

  /** What the question's answer is over `range`, counted here rather than by srag. */
  function cheapHotels(range: Range): number {
    const [header, ...rows] = range;
    const price = header!.indexOf('price_per_night');
    const status = header!.indexOf('_status');
    return rows.filter((row) => row[status] === 'done' && typeof row[price] === 'number' && (row[price] as number) < 150).length;
  }

  function pinnedQueryProperties(host: AppsScriptHost): string[] {
    return [...host.documentProperties.values.keys()].filter((key) => key.startsWith('srag.query.'));
  }

  it('runs its query again over the new rows when a batch writes them, without a model call', async () => {
    await withHost(async (host) => {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 24), baseUrl: standIn.url });
      await runSidebarBatch(host);
      const full = rangeValues(host, 'Records');
      const partial = withRowsPending(full, 12);
      expect(cheapHotels(partial)).not.toBe(cheapHotels(full));
      standIn.reset();

      const before = firstCell(await host.runCustomFunction<number[][]>('SRAG_ASK', [question, partial, false]));
      expect(before).toBe(cheapHotels(partial));
      expect(standIn.countByKind()).toEqual({ 'generate-sql': 1 });

      const after = firstCell(await host.runCustomFunction<number[][]>('SRAG_ASK', [question, full, false]));
      expect(after).toBe(cheapHotels(full));
      expect(standIn.requests).toHaveLength(1);
    });
  });

  it('writes the query again from the current rows after Refresh SRAG_ASK queries, re-entering each formula so Sheets recalculates it', async () => {
    await withHost(async (host) => {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 24), baseUrl: standIn.url });
      await runSidebarBatch(host);
      const full = rangeValues(host, 'Records');
      const answers = host.spreadsheet.addSheet('Answers');
      answers.set('formulas', 2, 2, `=SRAG_ASK("${question.replace(/"/g, '""')}", Records!A1:R)`);
      standIn.reset();
      await host.runCustomFunction('SRAG_ASK', [question, withRowsPending(full, 12), false]);
      await host.runCustomFunction('SRAG_ASK', [question, full, false]);
      expect(standIn.countByKind()).toEqual({ 'generate-sql': 1 });
      expect(pinnedQueryProperties(host)).toHaveLength(1);

      const refreshed = await host.run<{ forgotten: number; formulas: number }>('menuRefreshAskQueries');
      expect(refreshed).toEqual({ forgotten: 1, formulas: 1 });
      expect(pinnedQueryProperties(host)).toEqual([]);
      expect(answers.formulaWrites.map((write) => write.formula)).toEqual(['', answers.formulas[1]![1]]);
      expect(host.spreadsheet.toasts.at(-1)).toMatch(/^1 SRAG_ASK formula\(s\) recalculate/);

      // The recalculation Sheets then runs: the prompt now carries the statistics of all 24 rows.
      expect(firstCell(await host.runCustomFunction<number[][]>('SRAG_ASK', [question, full, false]))).toBe(cheapHotels(full));
      expect(standIn.countByKind()).toEqual({ 'generate-sql': 2 });
      expect(pinnedQueryProperties(host)).toHaveLength(1);
    });
  });

  it('asks the model for a new query when the pinned one no longer runs, and pins the new one', async () => {
    const range = rangeValues(extracted, 'Records');
    await extracted.runCustomFunction('SRAG_ASK', [question, range, false]);
    const [key] = pinnedQueryProperties(extracted).filter((name) => JSON.parse(extracted.documentProperties.getProperty(name)!).sql.includes('price_per_night < 150'));
    extracted.documentProperties.setProperty(key!, JSON.stringify({ sql: 'SELECT COUNT(*) FROM hotels WHERE nightly_rate < 150', savedAt: 0 }));
    standIn.reset();

    expect(firstCell(await extracted.runCustomFunction<number[][]>('SRAG_ASK', [question, range, false]))).toBe(cheapHotels(range));
    expect(JSON.parse(extracted.documentProperties.getProperty(key!)!).sql).toContain('price_per_night < 150');
  });
});

describe('custom-function limits, in the cell', () => {
  it('says settings are missing, naming the owner, and reads the owner\'s settings even when an editor recalculates', async () => {
    await withHost(async (host) => {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 2), baseUrl: standIn.url });
      host.userProperties.owner.deleteAllProperties();
      await host.run('saveSettings', [{ baseUrl: '', apiKey: 'sk-editor-own-key-123456', model: '' }], { user: 'editor' });
      const missing = firstCell(await host.runCustomFunction<string[][]>('SRAG_EXTRACT', [amberArch.text, rangeValues(host, 'Schema')], 'editor'));
      expect(missing).toMatch(/^⚠ srag: no model settings: the spreadsheet owner opens Extensions › srag › Settings/);
      await host.run('saveSettings', [{ baseUrl: standIn.url, apiKey: 'sk-owner-key-123456', model: 'srag-stand-in' }], { user: 'owner' });
      const [row] = await host.runCustomFunction<unknown[][]>('SRAG_EXTRACT', [amberArch.text, rangeValues(host, 'Schema')], 'editor');
      expect(row![0]).toBe('Amber Arch Hotel');
      expect((standIn.requests.at(-1)!.body as { model: string }).model).toBe('srag-stand-in');
    });
  });

  it('stops before the 30-second limit of custom functions and says so, rather than being killed mid-way', async () => {
    await withHost(async (host) => {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 1), baseUrl: standIn.url });
      host.clock.speed = 100;
      standIn.setOptions({ latencyMs: 250 });
      standIn.failNext('server_error');
      const message = firstCell(await host.runCustomFunction<string[][]>('SRAG_EXTRACT', [hotels[9]!.text, rangeValues(host, 'Schema')]));
      expect(message).toMatch(/^⚠ srag: stopped to stay inside the 30-second limit of custom functions; the replies received so far are cached/);
    });
  });

  it('says when the daily UrlFetch quota is spent', async () => {
    await withHost(async (host) => {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 1), baseUrl: standIn.url });
      host.fetch.quotaExhausted = true;
      const message = firstCell(await host.runCustomFunction<string[][]>('SRAG_ASK', ['How many hotels are in Spain?', [['city'], ['Madrid']]]));
      expect(message).toMatch(/^⚠ srag: quota reached: Apps Script refused the request: .*too many times/);
    });
  });

  it('waits and sends again when Apps Script says too many requests in a short time, which is no daily quota', async () => {
    await withHost(async (host) => {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 1), baseUrl: standIn.url });
      host.fetch.throttledCalls = 2;
      const [row] = await host.runCustomFunction<unknown[][]>('SRAG_EXTRACT', [amberArch.text, rangeValues(host, 'Schema')]);
      expect(row![0]).toBe('Amber Arch Hotel');
      expect(host.fetch.throttledCalls).toBe(0);
    });
  });

  it('writes nothing to the spreadsheet: a custom function may only read', async () => {
    const before = JSON.stringify(extracted.spreadsheet.sheets.map((sheet) => sheet.values));
    await extracted.runCustomFunction('SRAG_ASK', ['How many hotels are in Spain?', rangeValues(extracted, 'Records')]);
    await extracted.runCustomFunction('SRAG_EXTRACT', [amberArch.text, rangeValues(extracted, 'Schema')]);
    expect(JSON.stringify(extracted.spreadsheet.sheets.map((sheet) => sheet.values))).toBe(before);
    expect(extracted.executions.filter((execution) => execution.customFunction && execution.outcome !== 'returned')).toEqual([]);
  });
});
