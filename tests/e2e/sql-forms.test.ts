import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../../node/serve/start-serve.ts';
import { injectionMarker, startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot, runSrag } from '../helpers/run-srag.ts';

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-sql-forms-'));
const schema = 'examples/hotels/schema.json';
const environment = (extra: Record<string, string> = {}) => ({ OPENAI_BASE_URL: standIn.url, SRAG_CONCURRENCY: '8', ...extra });

/** `srag sql -c` with --json: the rows, after checking that it succeeded. */
async function sql(database: string, query: string, extra: Record<string, string> = {}) {
  const run = await runSragInProcess(['sql', '--db', database, '--json', '-c', query], { environment: environment(extra) });
  expect(run.status, run.stderr).toBe(0);
  // One JSON line per statement that returns rows (none for DDL); the last one is the answer.
  const last = run.stdout.trim().split('\n').at(-1);
  return last ? JSON.parse(last) as { columns: string[]; rows: unknown[][] } : { columns: [], rows: [] };
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});
afterAll(async () => {
  await standIn.close();
});

describe('srag_extract in srag sql', () => {
  const database = join(workDirectory, 'forms.duckdb');

  it('takes read_text(glob) and read_text([files]) as written, with the same rows as the glob', async () => {
    const byGlob = await sql(database, `SELECT * FROM srag_extract('examples/hotels/docs/*', schema := '${schema}') ORDER BY filename`);
    expect(byGlob.rows).toHaveLength(50);
    standIn.reset();
    const byReadText = await sql(database, `SELECT * FROM srag_extract(read_text('examples/hotels/docs/*'), schema := '${schema}') ORDER BY filename`);
    expect(byReadText).toEqual(byGlob);
    const files = ['examples/hotels/docs/amber-arch-hotel.md', 'examples/hotels/docs/willow-lodge-hotel.html'];
    const byList = await sql(database, `SELECT * FROM srag_extract(read_text(['${files[1]}', '${files[0]}']), schema := '${schema}')`);
    expect(byList.rows).toEqual(byGlob.rows.filter((row) => files.includes(String(row[0]))));
    expect(standIn.requests).toHaveLength(0);
  });

  it('explains a value of a table made from srag_extract with srag why', async () => {
    await sql(database, `CREATE TABLE hotels AS SELECT * FROM srag_extract(read_text('examples/hotels/docs/*'), schema := '${schema}')`);
    const why = await runSragInProcess(['why', 'amber-arch-hotel.md', 'star_rating', '--db', database, '--table', 'hotels']);
    expect(why.status, why.stderr).toBe(0);
    expect(why.stdout).toMatch(/^examples\/hotels\/docs\/amber-arch-hotel\.md · star_rating = 4 \(supported\)\nmodel returned: .*\nquote: “[^”]*4[^”]*”\n$/);
    const unknown = await runSragInProcess(['why', 'amber-arch-hotel.md', 'no_such_column', '--db', database, '--table', 'hotels']);
    expect(unknown.stderr).toMatch(/^srag: table hotels has no column "no_such_column" — one of: hotel_name, /);
  });

  it('finds the table of srag why and srag stats itself when srag_extract made it, and says which to name when several could be meant', async () => {
    // `hotels`, made in the test before, is the database's only table.
    const why = await runSragInProcess(['why', 'amber-arch-hotel.md', 'star_rating', '--db', database]);
    expect(why.status, why.stderr).toBe(0);
    expect(why.stdout).toMatch(/^examples\/hotels\/docs\/amber-arch-hotel\.md · star_rating = 4 \(supported\)\nmodel returned: .*\nquote: “[^”]*4[^”]*”\n$/);
    const unknown = await runSragInProcess(['why', 'amber-arch-hotel.md', 'no_such_column', '--db', database]);
    expect(unknown.stderr).toMatch(/^srag: table hotels has no column "no_such_column" — one of: hotel_name, city, /);

    // srag stats computes the statistics from the table's rows: they agree with DuckDB's own aggregates.
    const stats = await runSragInProcess(['stats', '--db', database, '--json']);
    expect(stats.status, stats.stderr).toBe(0);
    const json = JSON.parse(stats.stdout) as { table: string; rows: number; log: Record<string, number>; sragExtract: { schemaKey: string }; statistics: Array<Record<string, unknown>> };
    const [[schemaKey]] = (await sql(database, 'SELECT schema_key FROM srag_extract_schemas')).rows as [[string]];
    const [[rows, stars, fewest, most, countries]] = (await sql(database, 'SELECT count(*), count(star_rating), min(star_rating), max(star_rating), count(DISTINCT country) FROM hotels')).rows as [[number, number, number, number, number]];
    expect(json).toMatchObject({ table: 'hotels', rows, log: { done: 50 }, sragExtract: { schemaKey } });
    expect(json.statistics.find((column) => column.name === 'star_rating')).toMatchObject({ rowCount: rows, nonNullCount: stars, min: fewest, max: most });
    expect(json.statistics.find((column) => column.name === 'country')).toMatchObject({ nonNullCount: rows, distinctCount: countries });
    const text = await runSragInProcess(['stats', '--db', database, '--table', 'hotels']);
    expect(text.stdout).toContain(`table hotels (Hotels) in ${database}: 50 rows; made from srag_extract; the log of its schema (${schemaKey}, every document scanned with it): 50 done\ncolumns:\n  hotel_name (string)\n`);

    // A second table with one of those columns: each command says which tables could be meant.
    await sql(database, 'CREATE TABLE prices AS SELECT filename, content_hash, price_per_night FROM hotels');
    const ambiguous = await runSragInProcess(['why', 'amber-arch-hotel.md', 'price_per_night', '--db', database]);
    expect(ambiguous.stderr).toMatch(/^srag: "price_per_night" is a column of several tables in .* \(hotels, prices\) — pass --table with one of: hotels, prices\n$/);
    const named = await runSragInProcess(['why', 'amber-arch-hotel.md', 'price_per_night', '--db', database, '--table', 'prices']);
    expect(named.stdout).toMatch(/^examples\/hotels\/docs\/amber-arch-hotel\.md · price_per_night = 470 \(supported\)\n/);
    expect((await runSragInProcess(['why', 'amber-arch-hotel.md', 'city', '--db', database])).stdout).toMatch(/ · city = Paris \(supported\)\n/);
    expect((await runSragInProcess(['stats', '--db', database])).stderr).toMatch(/^srag: .* holds several tables \(hotels, prices\) — pass --table with one of: hotels, prices\n$/);
    const prices = JSON.parse((await runSragInProcess(['stats', '--db', database, '--table', 'prices', '--json'])).stdout) as typeof json;
    expect(prices.statistics.map((column) => column.name)).toEqual(['price_per_night']);
    for (const command of [['stats'], ['why', 'amber-arch-hotel.md', 'city']]) {
      expect((await runSragInProcess([...command, '--db', database, '--table', 'nope'])).stderr).toMatch(/^srag: no table "nope" in .* made by srag ingest, srag import or srag_extract — pass --table with one of: hotels, prices\n$/);
    }
    // A copy without content_hash cannot find its rows' evidence: said, rather than "no such table".
    await sql(database, 'CREATE TABLE slim AS SELECT filename, manager_name FROM hotels');
    expect((await runSragInProcess(['why', 'amber-arch-hotel.md', 'manager_name', '--db', database, '--table', 'slim'])).stderr)
      .toMatch(/^srag: table slim has no content_hash column, by which a row of a table made from srag_extract finds its document's evidence — keep it when you make the table: /);
    await sql(database, 'DROP TABLE prices; DROP TABLE slim');
  });

  it('answers srag ask and srag serve over a table srag_extract made as srag_ask answers, as they answer over an ingested one', async () => {
    const asked = join(workDirectory, 'ask.duckdb');
    await sql(asked, `CREATE TABLE hotels AS SELECT * FROM srag_extract(read_text('examples/hotels/docs/*'), schema := '${schema}')`);
    const run = await runSragInProcess(['ask', 'How many hotels are in Spain?', '--db', asked], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^11\n\nTable: hotels \(made by srag_extract\)\nPath: sql \(the answer rests on the rows below\)\nSQL: SELECT COUNT\(\*\) FROM hotels WHERE country = 'Spain'\n/);
    // Several questions, --table and --json: a line each, with the fields an ingested table's answer has.
    const questions = ['How many hotels are in Spain?', 'How many 4-star hotels are there in Rome?', 'How many hotels charge less than $150 per night?'];
    const json = await runSragInProcess(['ask', ...questions, '--db', asked, '--table', 'hotels', '--json'], { environment: environment() });
    expect(json.status, json.stderr).toBe(0);
    const answers = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { answer: string; path: string; tables: string[]; columns: string[]; rows: unknown[][]; coverage: unknown[] });
    expect(answers.map((answer) => [answer.answer, answer.rows, answer.tables, answer.path])).toEqual([
      ['11', [[11]], ['hotels'], 'sql'], ['3', [[3]], ['hotels'], 'sql'], ['9', [[9]], ['hotels'], 'sql'],
    ]);
    expect(answers[0]!.coverage).toMatchObject([{ column: 'country', rows: 50, present: 50 }]);
    // The same answers as srag_ask gives in srag sql.
    const inSql = await sql(asked, "SELECT answer FROM srag_ask('How many 4-star hotels are there in Rome?', 'hotels')");
    expect(inSql.rows).toEqual([['3']]);
    // What srag_ask cannot do is refused in one line: reading documents, and growing a table srag ingest did not make.
    const hybrid = await runSragInProcess(['ask', 'How many hotels are in Spain?', '--db', asked, '--hybrid'], { environment: environment() });
    expect(hybrid.status).toBe(2);
    expect(hybrid.stderr).toMatch(/^srag: the hybrid path reads the documents of tables srag ingest made, and the question is asked of none \(tables made by srag import or srag_extract are answered from SQL alone\) — leave out --hybrid\n$/);
    const extend = await runSragInProcess(['ask', 'How many hotels are in Spain?', '--db', asked, '--extend-schema'], { environment: environment() });
    expect(extend.status).toBe(2);
    expect(extend.stderr.trim().split('\n')).toHaveLength(1);
    expect(extend.stderr).toContain('the question is asked of "hotels" (made by srag_extract) — extract the attributes with srag_extract');
    // A table name that is nowhere in the database: the error names the tables there are.
    const mistyped = await runSragInProcess(['ask', 'How many hotels are in Spain?', '--db', asked, '--table', 'hotles'], { environment: environment() });
    expect(mistyped.stderr).toMatch(/^srag: no table "hotles" in .* made by srag ingest, srag import or srag_extract — pass --table with one of: hotels\n$/);
    // srag serve answers over the same tables, with the same fields as srag ask --json; /why and /stats find the table too.
    const server = await startServe({ db: asked, port: 0, host: '127.0.0.1', environment: environment(), directory: repositoryRoot });
    try {
      const query = (body: Record<string, unknown>) => fetch(`${server.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      for (const [index, question] of questions.entries()) {
        const response = await query({ question });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ ...answers[index], usage: expect.any(Object) });
      }
      const refused = await query({ question: questions[0], hybrid: true });
      expect(refused.status).toBe(400);
      expect((await refused.json()) as { error: { message: string; hint: string } }).toMatchObject({ error: { message: expect.stringContaining('(tables made by srag import or srag_extract are answered from SQL alone)'), hint: 'leave out "hybrid"' } });
      const why = await (await fetch(`${server.url}/why?document=amber-arch-hotel.md&attribute=star_rating`)).json() as Record<string, unknown>;
      expect(why).toMatchObject({ table: 'hotels', attribute: 'star_rating', value: '4', status: 'supported' });
      const stats = await (await fetch(`${server.url}/stats`)).json() as Record<string, unknown>;
      expect(stats).toMatchObject({ table: 'hotels', rows: 50, log: { done: 50 } });
      // The evidence browser's endpoints: the table listed, its schema, its rows by file, a document with the quote found in it.
      expect(await (await fetch(`${server.url}/tables`)).json()).toEqual({ tables: ['hotels'] });
      const shape = await (await fetch(`${server.url}/schema?table=hotels`)).json() as { title: string; attributes: Array<{ name: string }> };
      expect(shape.title).toBe('Hotels');
      expect(shape.attributes.map((attribute) => attribute.name)).toContain('star_rating');
      const records = await (await fetch(`${server.url}/records?table=hotels&limit=3`)).json() as { total: number; columns: string[]; rows: unknown[][]; labels: string[] };
      expect(records.total).toBe(50);
      expect(records.columns.at(-1)).toBe('filename');
      expect(records.labels[0]).toBe('examples/hotels/docs/amber-arch-hotel.md');
      const amber = records.rows[0]!;
      expect(amber[records.columns.indexOf('star_rating')]).toBe(4);
      const shown = await (await fetch(`${server.url}/document?table=hotels&source=${encodeURIComponent(String(amber.at(-1)))}&quote=${encodeURIComponent(String(why.quote))}`)).json() as { text: string; spans: Array<{ start: number; end: number }> };
      expect(shown.spans).toHaveLength(1);
      // The span covers the quote's words (its closing full stop aside).
      expect(shown.text.slice(shown.spans[0]!.start, shown.spans[0]!.end)).toBe(String(why.quote).replace(/\.$/, ''));
      const missing = await fetch(`${server.url}/document?table=hotels&source=no-such-file.md`);
      expect(missing.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('chooses among every table whatever made it: beside an imported table, a question finds the table srag_extract made', async () => {
    const mixed = join(workDirectory, 'mixed.duckdb');
    await sql(mixed, `CREATE TABLE hotels AS SELECT * FROM srag_extract(read_text('examples/hotels/docs/*'), schema := '${schema}')`);
    const rates = join(workDirectory, 'exchange_rates.csv');
    writeFileSync(rates, 'currency,rate\nEUR,1.08\nGBP,1.27\n');
    const imported = await runSragInProcess(['import', rates, '--db', mixed]);
    expect(imported.status, imported.stderr).toBe(0);
    const unnamed = await runSragInProcess(['ask', 'How many hotels are in Spain?', '--db', mixed], { environment: environment() });
    expect(unnamed.status, unnamed.stderr).toBe(0);
    expect(unnamed.stdout).toMatch(/^11\n\nTable: hotels \(made by srag_extract\)\n/);
    expect(unnamed.stderr).toBe('');
    // What the imported table lacks cannot be extracted into it: the hint says so rather than offering --extend-schema.
    const rate = await runSragInProcess(['ask', 'How many hotels are in Spain?', '--db', mixed, '--table', 'exchange_rates'], { environment: environment() });
    expect(rate.status).toBe(7);
    expect(rate.stderr).toBe('srag: "How many hotels are in Spain?" needs an attribute the table "exchange_rates" does not hold: country — exchange_rates was imported with srag import, and srag extracts nothing into an imported table: import it again from a file with what is missing (srag import --replace), or ask a table made from documents\n');
  });

  it("keeps every column of srag_ask's result in the query's order: a repeated name made unique, an integer-like name where the query put it", async () => {
    const database = join(workDirectory, 'columns.duckdb');
    // The stand-in answers with the SQL the prompt carries after its marker: here in a column's description.
    const query = 'SELECT country, country, count(*) AS "2023", min(star_rating) AS "10" FROM hotels WHERE country IN (\'France\', \'Spain\') GROUP BY country ORDER BY country';
    const hotelsSchema = JSON.parse(readFileSync(join(repositoryRoot, schema), 'utf8')) as { properties: Record<string, { description: string }> };
    hotelsSchema.properties.manager_name!.description = `${injectionMarker} ${query}`;
    const injectedSchema = join(workDirectory, 'columns-schema.json');
    writeFileSync(injectedSchema, JSON.stringify(hotelsSchema));
    await sql(database, `CREATE TABLE hotels AS SELECT * FROM srag_extract(read_text('examples/hotels/docs/*'), schema := '${injectedSchema}')`);
    const expected = await sql(database, query);
    expect(expected.rows).toHaveLength(2);

    const inSql = await sql(database, "SELECT sql, json_keys(result->0) AS keys, result FROM srag_ask('Which countries have hotels?')");
    expect(inSql.rows[0]![0]).toBe(query);
    const [keys, objects] = inSql.rows[0]!.slice(1).map((cell) => (typeof cell === 'string' ? JSON.parse(cell) : cell)) as [string[], Array<Record<string, unknown>>];
    expect(keys).toEqual(['country', 'country_1', '2023', '10']);
    expect(objects.map((object) => [object.country, object.country_1, object['2023'], object['10']])).toEqual(expected.rows);

    const ask = await runSragInProcess(['ask', 'Which countries have hotels?', '--db', database, '--json'], { environment: environment() });
    expect(ask.status, ask.stderr).toBe(0);
    const answer = JSON.parse(ask.stdout) as { columns: string[]; rows: unknown[][] };
    expect(answer.columns).toEqual(['country', 'country_1', '2023', '10']);
    expect(answer.rows).toEqual(expected.rows);
  });

  it('gives a link out of the glob its own row and error, and reads it with follow_links := true', async () => {
    const documents = join(workDirectory, 'links');
    mkdirSync(documents);
    cpSync(join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md'), join(documents, 'amber-arch-hotel.md'));
    writeFileSync(join(workDirectory, 'private.md'), '# Private Hotel\n\nPassword: hunter2. STAND-IN: NO-VALUES');
    symlinkSync(join(workDirectory, 'private.md'), join(documents, 'private.md'));
    standIn.reset();
    const rows = (await sql(database, `SELECT filename, _error FROM srag_extract('${documents}/*', schema := '${schema}') ORDER BY filename`)).rows;
    expect(rows).toEqual([[`${documents}/amber-arch-hotel.md`, null], [`${documents}/private.md`, `${documents}/private.md is a symbolic link to ${join(workDirectory, 'private.md')}, outside the given paths; add follow_links := true to read it`]]);
    expect(standIn.requests.some((request) => JSON.stringify(request.body).includes('hunter2'))).toBe(false);
    const followed = (await sql(database, `SELECT filename, _error FROM srag_extract('${documents}/*', schema := '${schema}', follow_links := true) ORDER BY filename`)).rows;
    expect(followed.map((row) => row[1])).toEqual([null, null]);
  });
});

describe('srag_extract over moved documents', () => {
  it('lets a moved or renamed file keep its record — no call, its values, evidence and log entry at the new path — and extracts a changed or copied one anew', async () => {
    const project = join(workDirectory, 'moving');
    const documents = join(project, 'docs');
    mkdirSync(documents, { recursive: true });
    for (const page of ['amber-arch-hotel.md', 'amber-lantern-hotel.html', 'crystal-arch-suites.txt', 'cedar-crown-hotel.html']) {
      cpSync(join(repositoryRoot, 'examples/hotels/docs', page), join(documents, page));
    }
    const database = join(project, 'moving.duckdb');
    // One call per document: a call of several would hide which of them were extracted.
    const scan = (directory: string) => `SELECT filename, hotel_name, star_rating, _error FROM srag_extract('${directory}/*', schema := '${schema}', batch_size := 1) ORDER BY filename`;
    const before = (await sql(database, scan(documents))).rows as string[][];
    expect(before).toHaveLength(4);

    // The directory is renamed; one page is changed on the way, and one is copied elsewhere (its original stays).
    const archive = join(project, 'archive');
    renameSync(documents, archive);
    writeFileSync(join(archive, 'cedar-crown-hotel.html'), `${readFileSync(join(archive, 'cedar-crown-hotel.html'), 'utf8')}\n<p>Renovated in 2024.</p>\n`);
    mkdirSync(join(project, 'copies'));
    cpSync(join(archive, 'amber-arch-hotel.md'), join(project, 'copies', 'amber-arch-hotel.md'));
    standIn.reset();
    const moved = await runSrag(['sql', '--db', database, '--json', '-c', `CREATE TABLE archived AS SELECT * FROM srag_extract('${archive}/*', schema := '${schema}', batch_size := 1); SELECT filename, hotel_name, star_rating, _error FROM archived ORDER BY filename`], { environment: environment() });
    expect(moved.status, moved.stderr).toBe(0);
    // The moves were checkpointed at close: no write-ahead log is left to replay at the next open.
    expect(existsSync(`${database}.wal`)).toBe(false);
    expect((JSON.parse(moved.stdout.trim().split('\n').at(-1)!) as { rows: string[][] }).rows)
      .toEqual(before.map(([filename, ...values]) => [filename!.replace('/moving/docs/', '/moving/archive/'), ...values]));
    // Only the changed page was extracted again; the other three followed their files.
    expect(standIn.requests).toHaveLength(1);
    expect(JSON.stringify(standIn.requests[0]!.body)).toContain('Renovated in 2024');
    expect(moved.stderr).toMatch(/^srag_extract: moved: 3 records of Hotels follow their documents to new paths instead of being extracted again \(\S*archive\/amber-arch-hotel\.md, was \S*docs\/amber-arch-hotel\.md; /m);
    const counts = `SELECT (SELECT count(*) FROM srag_ingestion_log WHERE source LIKE '%/moving/archive/%'), (SELECT count(*) FROM srag_ingestion_log WHERE source LIKE '%/moving/docs/%'),
      (SELECT count(DISTINCT source) FROM srag_evidence WHERE source LIKE '%/moving/archive/%'), (SELECT count(DISTINCT source) FROM srag_evidence WHERE source LIKE '%/moving/docs/%')`;
    // The changed page's old entry stays where it was: its file is gone and nothing took it over.
    expect((await sql(database, counts)).rows).toEqual([[4, 1, 4, 1]]);
    const why = await runSragInProcess(['why', join(archive, 'amber-arch-hotel.md'), 'star_rating', '--db', database, '--table', 'archived']);
    expect(why.status, why.stderr).toBe(0);
    expect(why.stdout).toMatch(/^\S*archive\/amber-arch-hotel\.md · star_rating = 4 \(supported\)\n/);

    // Nothing is left to follow: the same scan again makes no call and says nothing.
    standIn.reset();
    const again = await runSrag(['sql', '--db', database, '--json', '-c', scan(archive)], { environment: environment() });
    expect([again.status, again.stderr, standIn.requests.length]).toEqual([0, '', 0]);
    // A copy whose original is still there is a document of its own.
    expect((await sql(database, scan(join(project, 'copies')))).rows).toEqual([[join(project, 'copies', 'amber-arch-hotel.md'), ...before[0]!.slice(1)]]);
    expect(standIn.requests).toHaveLength(1);
  });

  it('follows moved files in the scalar form too, with one line for the statement however many chunks DuckDB hands the function', async () => {
    const project = join(workDirectory, 'moving-scalar');
    const texts = join(project, 'texts');
    mkdirSync(texts, { recursive: true });
    for (const page of ['amber-arch-hotel.md', 'amber-lantern-hotel.html', 'crystal-arch-suites.txt']) {
      cpSync(join(repositoryRoot, 'examples/hotels/docs', page), join(texts, page));
    }
    const database = join(project, 'scalar.duckdb');
    // read_text hands the scalar a row at a time: three calls of the function in one statement.
    const scan = (directory: string) => `SELECT filename, r.hotel_name, r.star_rating FROM (SELECT filename, json_transform(srag_extract(content, '${schema}', filename), srag_record_type('${schema}')) AS r FROM read_text('${directory}/*')) ORDER BY filename`;
    const before = (await sql(database, scan(texts))).rows as string[][];
    expect(before.map((row) => row[1])).toEqual(['Amber Arch Hotel', 'Amber Lantern Hotel', 'Crystal Arch Suites']);
    const renamed = join(project, 'renamed');
    renameSync(texts, renamed);
    standIn.reset();
    const moved = await runSrag(['sql', '--db', database, '--json', '-c', scan(renamed)], { environment: environment() });
    expect(moved.status, moved.stderr).toBe(0);
    // The moves were checkpointed at close: no write-ahead log is left to replay at the next open.
    expect(existsSync(`${database}.wal`)).toBe(false);
    expect((JSON.parse(moved.stdout.trim().split('\n').at(-1)!) as { rows: string[][] }).rows)
      .toEqual(before.map(([filename, ...values]) => [filename!.replace(texts, renamed), ...values]));
    expect(standIn.requests).toHaveLength(0);
    expect(moved.stderr.match(/^srag_extract: moved: /gm)).toHaveLength(1);
    expect(moved.stderr).toMatch(/^srag_extract: moved: 3 records of Hotels follow their documents to new paths/m);
  });
});

describe('srag_extract killed with SIGKILL', () => {
  it('keeps every reply that arrived, so running it again asks only for the rest', async () => {
    const documents = join(workDirectory, 'killed-docs');
    cpSync(join(repositoryRoot, 'examples/hotels/docs'), documents, { recursive: true });
    const database = join(workDirectory, 'killed.duckdb');
    const statement = `CREATE OR REPLACE TABLE hotels AS SELECT * FROM srag_extract('${documents}/*', schema := '${schema}', concurrency := 2, batch_size := 1)`;
    standIn.reset();
    standIn.setOptions({ latencyMs: 100 });
    let answeredBeforeKill = 0;
    try {
      const killed = await runSrag(['sql', '--db', database, '-c', statement], {
        environment: environment(),
        onSpawn: (child) => {
          const timer = setInterval(() => {
            const answered = standIn.requests.filter((request) => request.status === 200).length;
            if (answered >= 12) {
              clearInterval(timer);
              answeredBeforeKill = answered;
              child.kill('SIGKILL');
            }
          }, 20);
        },
      });
      expect(killed.signal).toBe('SIGKILL');
    } finally {
      standIn.setOptions({ latencyMs: 0 });
    }
    // Each reply was saved as it came: at most the replies of the two requests in flight (concurrency 2)
    // can be answered and not yet saved when the kill comes — on a loaded machine the bridge may
    // not have read the last one the stand-in sent.
    const saved = (await sql(database, "SELECT count(*) FROM srag_ingestion_log WHERE table_name LIKE 'srag_extract:%' AND status = 'done'")).rows[0]![0] as number;
    expect(saved).toBeGreaterThanOrEqual(answeredBeforeKill - 2);
    standIn.reset();
    expect((await sql(database, `${statement}; SELECT count(*), count(_error) FROM hotels`)).rows).toEqual([[readdirSync(documents).length, 0]]);
    expect(standIn.requests.length).toBeLessThanOrEqual(50 - answeredBeforeKill + 2);
    expect(standIn.requests.length).toBe(50 - saved);
  });
});
