import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlResult, SqlValue } from '../../core/index.ts';
import { openSqlSession, type SqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { batchDocumentMarkers, documentMarkers, startLlmStandIn, type LlmStandIn, type RecordedRequest } from '../helpers/llm-stand-in/index.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

const hotels = join(repositoryRoot, 'examples/hotels');
const schemaFile = 'examples/hotels/schema.json';
const attributes = Object.keys((JSON.parse(readFileSync(join(hotels, 'schema.json'), 'utf8')) as { properties: Record<string, unknown> }).properties);
const gold = new Map(readFileSync(join(hotels, 'gold/records.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => {
  const record = JSON.parse(line) as { document: string; values: Record<string, { value: SqlValue }> };
  return [record.document.replace(/^docs\//, ''), Object.fromEntries(Object.entries(record.values).map(([name, value]) => [name, value.value]))] as const;
}));

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-table-functions-'));
const sessions: SqlSession[] = [];

/** A session on a fresh database, talking to the stand-in; retries off so a 500 fails at once. */
async function openSession(): Promise<SqlSession> {
  const session = await openSqlSession(':memory:', {
    environment: { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8', SRAG_MAX_RETRIES: '0' },
    progress: false,
  });
  sessions.push(session);
  return session;
}

/** Copies of hotel pages in a directory of their own, some with a stand-in marker appended. */
function documentDirectory(name: string, pages: string[], markers: Record<string, string> = {}): string {
  const directory = join(workDirectory, name);
  mkdirSync(directory, { recursive: true });
  for (const page of pages) {
    if (markers[page]) writeFileSync(join(directory, page), `${readFileSync(join(hotels, 'docs', page), 'utf8')}\n\n${markers[page]}\n`);
    else copyFileSync(join(hotels, 'docs', page), join(directory, page));
  }
  return relative(repositoryRoot, directory);
}

function objects({ columns, rows }: SqlResult): Array<Record<string, SqlValue>> {
  return rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index] ?? null])));
}

const fileName = (path: SqlValue | undefined) => String(path).split('/').at(-1)!;

/** The most requests the stand-in was answering at one moment. */
function maximumInFlight(requests: RecordedRequest[]): number {
  const events = requests.flatMap((request) => [{ at: request.startedAt, change: 1 }, { at: request.finishedAt, change: -1 }])
    .sort((left, right) => left.at - right.at || left.change - right.change);
  let inFlight = 0;
  let maximum = 0;
  for (const event of events) {
    inFlight += event.change;
    maximum = Math.max(maximum, inFlight);
  }
  return maximum;
}

const pages = readdirSync(join(hotels, 'docs')).sort();
const textPages = pages.filter((page) => page.endsWith('.md') || page.endsWith('.txt'));

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});
afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  await standIn.close();
});

describe('srag_extract over the hotels sample', () => {
  let session: SqlSession;
  const scan = `SELECT * FROM srag_extract('examples/hotels/docs/*', schema := '${schemaFile}') ORDER BY filename`;

  beforeAll(async () => {
    standIn.reset();
    session = await openSession();
  });

  it('returns one row per document: filename, content_hash, one typed column per property named exactly as it, and _error', async () => {
    const result = await session.run(scan);
    expect(result.columns).toEqual(['filename', 'content_hash', ...attributes, '_error']);
    const types = await session.run(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM srag_extract('examples/hotels/docs/*', schema := '${schemaFile}'))`);
    expect(Object.fromEntries(types.rows)).toMatchObject({
      filename: 'VARCHAR', content_hash: 'VARCHAR', hotel_name: 'VARCHAR', star_rating: 'BIGINT', price_per_night: 'DOUBLE',
      has_pool: 'BOOLEAN', opened_date: 'DATE', _error: 'VARCHAR',
    });
    const rows = objects(result);
    expect(rows).toHaveLength(50);
    // Short pages share calls by default (batch_size := 1 would send each alone).
    const calls = standIn.countByKind()['extract-record-batch']!;
    expect(standIn.countByKind()).toEqual({ 'extract-record-batch': calls });
    expect(calls).toBeLessThanOrEqual(10);
    for (const row of rows) {
      expect(row.content_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row._error).toBeNull();
      expect(Object.fromEntries(attributes.map((name) => [name, row[name]])), String(row.filename)).toEqual(gold.get(fileName(row.filename)));
    }
    // The gold data leaves some values unstated: those are NULL, not zeros or empty strings.
    expect(rows.find((row) => fileName(row.filename) === 'cobalt-gate-boutique-hotel.html')).toMatchObject({ star_rating: null, price_per_night: null });
  });

  it('makes no model call when the same SELECT runs again: unchanged documents come back from their stored records', async () => {
    standIn.reset();
    const first = await session.run(scan);
    const again = await session.run(scan);
    expect(standIn.requests).toHaveLength(0);
    expect(again).toEqual(first);
    const usage = objects(await session.run('SELECT * FROM srag_usage()'));
    expect(usage).toEqual([{
      model: 'gpt-4o-mini', calls: expect.any(Number), cache_hits: 0, retries: 0, prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number),
      // The stand-in reports the repeated instructions of every call after the first as cached, as OpenAI does.
      cached_prompt_tokens: expect.any(Number),
    }]);
    expect(usage[0]!.calls).toBeLessThanOrEqual(10);
    expect(usage[0]!.cached_prompt_tokens).toBeGreaterThan(0);
  });

  it('composes with read_text as a scalar: the same records, from the same cache', async () => {
    standIn.reset();
    const composed = await session.run(`
      SELECT filename, r.* FROM (
        SELECT filename, json_transform(srag_extract(content, '${schemaFile}', filename), srag_record_type('${schemaFile}')) AS r
        FROM read_text('examples/hotels/docs/*'))
      ORDER BY filename`);
    expect(standIn.requests).toHaveLength(0);
    const table = await session.run(`SELECT filename, ${attributes.join(', ')}, _error FROM (${scan})`);
    expect(composed.columns).toEqual(table.columns);
    expect(composed.rows.map((row) => [fileName(row[0]!), ...row.slice(1)])).toEqual(table.rows.map((row) => [fileName(row[0]!), ...row.slice(1)]));
  });

  it('takes read_text(glob) as written: the same rows as the glob itself, from the same records', async () => {
    standIn.reset();
    const written = await session.run(`SELECT * FROM srag_extract(read_text('examples/hotels/docs/*'), schema := '${schemaFile}') ORDER BY filename`);
    expect(standIn.requests).toHaveLength(0);
    expect(written).toEqual(await session.run(scan));
  });

  it('takes a list of paths, and read_text of a list, each file once', async () => {
    const [first, second] = [`examples/hotels/docs/${pages[0]}`, `examples/hotels/docs/${pages[1]}`];
    const listed = await session.run(`SELECT filename, hotel_name FROM srag_extract(read_text(['${second}', '${first}', '${first}']), schema := '${schemaFile}')`);
    expect(listed.rows).toEqual([[first, gold.get(pages[0]!)!.hotel_name], [second, gold.get(pages[1]!)!.hotel_name]]);
    expect(await session.run(`SELECT filename, hotel_name FROM srag_extract(['${second}', '${first}'], schema := '${schemaFile}')`)).toEqual(listed);
  });

  it('leaves FROM read_text(…) to DuckDB: the list form exists only where a value is expected', async () => {
    const table = await session.run("SELECT count(*), min(length(content)) > 0 FROM read_text('examples/hotels/docs/*')");
    expect(table.rows).toEqual([[50, true]]);
    const list = await session.run("SELECT len(read_text('examples/hotels/docs/*')), read_text('examples/hotels/docs/*')[1].filename");
    expect(list.rows).toEqual([[50, `examples/hotels/docs/${pages[0]}`]]);
  });

  it('names what it takes when the first argument is neither a glob nor a list of paths', async () => {
    await expect(session.run(`SELECT * FROM srag_extract(42, schema := '${schemaFile}')`)).rejects.toThrow(/srag_extract takes a glob, a list of paths, or read_text\(…\)/);
  });

  it('names the problem when the glob matches nothing or the schema is missing', async () => {
    await expect(session.run(`SELECT * FROM srag_extract('no/such/*.html', schema := '${schemaFile}')`)).rejects.toThrow(/srag_extract: no documents: no files match "no\/such\/\*\.html"/);
    await expect(session.run("SELECT * FROM srag_extract('examples/hotels/docs/*')")).rejects.toThrow(/srag_extract needs a schema/);
    await expect(session.run(`SELECT * FROM srag_extract('examples/hotels/docs/*', schema := '${schemaFile}', on_error := 'ignore')`)).rejects.toThrow(/on_error must be 'capture', 'null' or 'fail'/);
  });
});

describe('srag_extract when documents fail', () => {
  const brokenPages = textPages.slice(0, 4);
  let directory: string;
  let session: SqlSession;

  beforeAll(async () => {
    directory = documentDirectory('with-failures', brokenPages, {
      [brokenPages[1]!]: documentMarkers.alwaysServerError,
      [brokenPages[2]!]: documentMarkers.garbage,
    });
    session = await openSession();
  });

  it('fills _error on the failed rows only, with every attribute NULL, and the rest succeed', async () => {
    standIn.reset();
    const rows = objects(await session.run(`SELECT * FROM srag_extract('${directory}/*', schema := '${schemaFile}') ORDER BY filename`));
    expect(rows.map((row) => fileName(row.filename))).toEqual(brokenPages);
    const [good, serverError, garbage, alsoGood] = rows;
    for (const row of [good!, alsoGood!]) {
      expect(row._error).toBeNull();
      expect(Object.fromEntries(attributes.map((name) => [name, row[name]]))).toEqual(gold.get(fileName(row.filename)));
    }
    expect(serverError!._error).toMatch(/the model endpoint answered 500/);
    expect(garbage!._error).toMatch(/could not be used/);
    for (const row of [serverError!, garbage!]) expect(attributes.map((name) => row[name])).toEqual(attributes.map(() => null));
  });

  it('does not send a failed document again unless retry_failed := true', async () => {
    standIn.reset();
    const again = objects(await session.run(`SELECT filename, _error FROM srag_extract('${directory}/*', schema := '${schemaFile}') ORDER BY filename`));
    expect(standIn.requests).toHaveLength(0);
    expect(again[1]!._error).toMatch(/answered 500.*failed in an earlier run with the same content; add retry_failed := true to try again/);
    const log = objects(await session.run("SELECT source, status FROM srag_ingestion_log WHERE table_name LIKE 'srag_extract:hotels:%' AND status = 'failed' ORDER BY source"));
    expect(log.map((entry) => fileName(entry.source))).toEqual([brokenPages[1], brokenPages[2]]);

    standIn.reset();
    await session.run(`SELECT * FROM srag_extract('${directory}/*', schema := '${schemaFile}', retry_failed := true)`);
    expect(standIn.countByKind()['extract-record']).toBeGreaterThanOrEqual(2);
  });

  it("leaves _error NULL with on_error := 'null', and fails the statement naming the file with on_error := 'fail'", async () => {
    const nulls = objects(await session.run(`SELECT filename, hotel_name, _error FROM srag_extract('${directory}/*', schema := '${schemaFile}', on_error := 'null') ORDER BY filename`));
    expect(nulls[1]).toMatchObject({ hotel_name: null, _error: null });
    expect(nulls[0]!.hotel_name).not.toBeNull();
    await expect(session.run(`SELECT * FROM srag_extract('${directory}/*', schema := '${schemaFile}', on_error := 'fail')`))
      .rejects.toThrow(new RegExp(`srag_extract: model request failed: .*${brokenPages[1]!.replace('.', '\\.')}.*answered 500`));
  });
});

describe('srag_extract concurrency', () => {
  let session: SqlSession;
  beforeAll(async () => {
    session = await openSession();
  });

  it('keeps up to `concurrency` requests in flight at once, never more', async () => {
    const directory = documentDirectory('concurrency', pages.slice(0, 16));
    standIn.reset();
    standIn.setOptions({ latencyMs: 150 });
    try {
      // One document per call: the bound is on requests, whatever their size.
      const result = await session.run(`SELECT count(*) AS rows FROM srag_extract('${directory}/*', schema := '${schemaFile}', concurrency := 4, batch_size := 1)`);
      expect(result.rows).toEqual([[16]]);
    } finally {
      standIn.setOptions({ latencyMs: 0 });
    }
    expect(standIn.requests).toHaveLength(16);
    const inFlight = maximumInFlight(standIn.requests);
    expect(inFlight).toBeGreaterThan(1);
    expect(inFlight).toBeLessThanOrEqual(4);
  });

  it('runs a statement that calls srag_extract with DuckDB on one thread, and gives the session its own setting back after it', async () => {
    const directory = documentDirectory('one-thread', pages.slice(40, 42));
    await session.run('SET threads = 3');
    const during = await session.run(`SELECT current_setting('threads') AS threads, count(*) AS rows FROM srag_extract('${directory}/*', schema := '${schemaFile}')`);
    expect(during.rows).toEqual([[1, 2]]);
    expect((await session.run("SELECT current_setting('threads')")).rows).toEqual([[3]]);
    // A failed statement gives it back too.
    await expect(session.run("SELECT * FROM srag_extract('no/such/dir/*', schema := 'examples/hotels/schema.json')")).rejects.toThrow(/no\/such\/dir/);
    expect((await session.run("SELECT current_setting('threads')")).rows).toEqual([[3]]);
    // Other statements keep the session's setting, including a name that only contains the function's.
    expect((await session.run("SELECT current_setting('threads') AS my_srag_extract_count")).rows).toEqual([[3]]);
  });

  it('cancels a long scan at once: requests in flight are aborted and a rerun resumes from the cache', async () => {
    const directory = documentDirectory('cancel', pages.slice(16, 36));
    standIn.reset();
    standIn.setOptions({ latencyMs: 300 });
    try {
      const running = session.run(`SELECT count(*) FROM srag_extract('${directory}/*', schema := '${schemaFile}', concurrency := 2, batch_size := 1)`);
      const failure = running.then(() => undefined, (error: Error) => error);
      while (standIn.requests.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      const cancelledAt = Date.now();
      session.cancel();
      const error = await failure;
      expect(error?.message).toMatch(/cancelled/);
      // The 17 documents left would take 2.5 s at this latency and concurrency.
      expect(Date.now() - cancelledAt).toBeLessThan(2000);
      expect(standIn.requests.length).toBeLessThan(20);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(standIn.requests.filter((request) => request.status === 0).length, 'requests closed before their answer').toBeGreaterThan(0);
    } finally {
      standIn.setOptions({ latencyMs: 0 });
    }
    const answered = standIn.requests.filter((request) => request.status === 200).length;
    standIn.reset();
    expect((await session.run(`SELECT count(*) FROM srag_extract('${directory}/*', schema := '${schemaFile}', batch_size := 1)`)).rows).toEqual([[20]]);
    // Answers that reached the bridge before the cancel are cached; one sent just as it came may not be.
    expect(standIn.requests.length).toBeGreaterThanOrEqual(20 - answered);
    expect(standIn.requests.length).toBeLessThanOrEqual(20 - answered + 2);
  });
});

describe('srag_extract with batch_size', () => {
  let session: SqlSession;
  beforeAll(async () => {
    session = await openSession();
  });

  it('sends several documents per call, and splits a batch whose reply leaves one out instead of padding it', async () => {
    const batchPages = textPages.slice(4, 11);
    const directory = documentDirectory('batches', batchPages, { [batchPages[4]!]: batchDocumentMarkers.dropFromBatch });
    standIn.reset();
    const rows = objects(await session.run(`SELECT * FROM srag_extract('${directory}/*', schema := '${schemaFile}', batch_size := 3, concurrency := 1) ORDER BY filename`));
    expect(rows.map((row) => fileName(row.filename))).toEqual(batchPages);
    for (const row of rows) {
      expect(row._error).toBeNull();
      expect(Object.fromEntries(attributes.map((name) => [name, row[name]])), String(row.filename)).toEqual(gold.get(fileName(row.filename)));
    }
    const calls = standIn.requests.map((request) => {
      const user = String(request.body.messages.find((message: { role: string }) => message.role === 'user').content);
      return request.kind === 'extract-record-batch' ? `batch of ${user.match(/<document id="/g)!.length}` : 'single';
    });
    // [1 2 3] fit; [4 5* 6] comes back without 5, so it splits into [4 5*] (again without 5) and [6],
    // then [4] and [5*] go alone; [7] is a batch of one, which is a single call.
    expect(calls).toEqual(['batch of 3', 'batch of 3', 'batch of 2', 'single', 'single', 'single', 'single']);

    standIn.reset();
    await session.run(`SELECT * FROM srag_extract('${directory}/*', schema := '${schemaFile}', batch_size := 3, concurrency := 1)`);
    expect(standIn.requests).toHaveLength(0);
  });

  it('splits a batch that fails outright until the bad document is alone', async () => {
    const batchPages = textPages.slice(11, 15);
    const directory = documentDirectory('failing-batch', batchPages, { [batchPages[0]!]: documentMarkers.alwaysServerError });
    standIn.reset();
    const rows = objects(await session.run(`SELECT filename, hotel_name, _error FROM srag_extract('${directory}/*', schema := '${schemaFile}', batch_size := 4, concurrency := 1) ORDER BY filename`));
    expect(rows[0]).toMatchObject({ hotel_name: null, _error: expect.stringMatching(/answered 500/) });
    expect(rows.slice(1).map((row) => row._error)).toEqual([null, null, null]);
    expect(rows.slice(1).map((row) => row.hotel_name)).toEqual(batchPages.slice(1).map((page) => gold.get(page)!.hotel_name));
  });
});
