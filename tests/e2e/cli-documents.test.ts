import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot, runSrag } from '../helpers/run-srag.ts';

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-documents-'));
const schema = join(repositoryRoot, 'examples/hotels/schema.json');
const environment = (extra: Record<string, string> = {}) => ({ OPENAI_BASE_URL: standIn.url, SRAG_CONCURRENCY: '8', ...extra });
const sql = async (database: string, query: string, cwd = repositoryRoot) => {
  const run = await runSragInProcess(['sql', '--db', database, '--json', '-c', query], { cwd });
  expect(run.status, run.stderr).toBe(0);
  // One JSON line per statement that returns rows (none for UPDATE); the last one is the answer.
  const last = run.stdout.trim().split('\n').at(-1);
  return last ? (JSON.parse(last) as { rows: unknown[][] }).rows : [];
};

/** A directory of its own with a few hotel pages copied in. */
function corpus(name: string, pages = 5): string {
  const directory = join(workDirectory, name, 'docs');
  mkdirSync(directory, { recursive: true });
  for (const page of ['amber-arch-hotel.md', 'amber-lantern-hotel.html', 'crystal-arch-suites.txt', 'cedar-crown-hotel.html', 'cobalt-gate-boutique-hotel.html'].slice(0, pages)) {
    cpSync(join(repositoryRoot, 'examples/hotels/docs', page), join(directory, page));
  }
  return directory;
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});
afterAll(async () => {
  await standIn.close();
});

describe("a document's identity", () => {
  it('does not depend on the working directory: ingesting the same files from elsewhere adds no row and makes no call', async () => {
    const documents = corpus('identity');
    const project = join(documents, '..');
    const database = join(project, 'hotels.duckdb');
    mkdirSync(join(project, 'sub'));
    expect((await runSragInProcess(['ingest', 'docs/*', '--schema', schema, '--db', 'hotels.duckdb'], { cwd: project, environment: environment() })).status).toBe(0);
    standIn.reset();
    const again = await runSragInProcess(['ingest', '../docs/*', '--schema', schema, '--db', '../hotels.duckdb'], { cwd: join(project, 'sub'), environment: environment() });
    expect(again.stdout).toMatch(/^hotels: 0 done, 0 failed, 5 unchanged/);
    expect(standIn.requests).toHaveLength(0);
    expect(await sql(database, 'SELECT count(*), count(DISTINCT "_source"), bool_and("_source" LIKE \'/%\') FROM hotels')).toEqual([[5, 5, true]]);
    // A bare file name still finds the evidence, shown relative to where srag runs.
    const why = await runSragInProcess(['why', 'amber-arch-hotel.md', 'star_rating', '--db', 'hotels.duckdb'], { cwd: project });
    expect(why.status, why.stderr).toBe(0);
    expect(why.stdout.split('\n')[0]).toBe('docs/amber-arch-hotel.md · star_rating = 4 (supported)');
  });

  it('moves rows an earlier srag stored with relative paths to the canonical path when they name the same file from here', async () => {
    const documents = corpus('relative');
    const project = join(documents, '..');
    const database = join(project, 'hotels.duckdb');
    expect((await runSragInProcess(['ingest', 'docs/*', '--schema', schema, '--db', 'hotels.duckdb'], { cwd: project, environment: environment() })).status).toBe(0);
    // What an earlier version wrote: paths relative to the directory it ran in.
    await sql(database, ['hotels', 'srag_evidence', 'srag_ingestion_log'].map((table) => {
      const column = table === 'hotels' ? '"_source"' : 'source';
      return `UPDATE ${table} SET ${column} = regexp_replace(${column}, '^.*/docs/', 'docs/')`;
    }).join('; '));
    standIn.reset();
    const again = await runSragInProcess(['ingest', 'docs/*', '--schema', schema, '--db', 'hotels.duckdb'], { cwd: project, environment: environment() });
    expect(again.stdout).toMatch(/^hotels: 0 done, 0 failed, 5 unchanged/);
    expect(again.stderr).toBe('');
    expect(standIn.requests).toHaveLength(0);
    expect(await sql(database, `SELECT (SELECT count(*) FROM hotels WHERE "_source" LIKE '${documents}/%'), (SELECT count(*) FROM srag_evidence WHERE source LIKE 'docs/%'), (SELECT count(*) FROM srag_ingestion_log WHERE source LIKE '${documents}/%')`))
      .toEqual([[5, 0, 5]]);
  });

  it('says so when relative rows were ingested from another directory, instead of guessing', async () => {
    const documents = corpus('relative-elsewhere', 2);
    const project = join(documents, '..');
    const database = join(project, 'hotels.duckdb');
    expect((await runSragInProcess(['ingest', 'docs/*', '--schema', schema, '--db', 'hotels.duckdb'], { cwd: project, environment: environment() })).status).toBe(0);
    await sql(database, `UPDATE srag_ingestion_log SET source = regexp_replace(source, '^.*/docs/', 'elsewhere/docs/')`);
    const again = await runSragInProcess(['ingest', 'docs/*', '--schema', schema, '--db', 'hotels.duckdb'], { cwd: project, environment: environment() });
    expect(again.stderr).toMatch(/^note: 2 documents of hotels were ingested by an earlier srag from another directory .*run srag ingest there once to convert them/);
  });

  it('follows a moved or renamed file with its record (no call, no second row), names a file that is gone, and removes its record only with --prune', async () => {
    const documents = corpus('moved');
    const project = join(documents, '..');
    const database = join(project, 'hotels.duckdb');
    const ingest = (...extra: string[]) => runSragInProcess(['ingest', 'docs', '--schema', schema, '--db', 'hotels.duckdb', ...extra], { cwd: project, environment: environment() });
    // An empty page has a log entry and no record: when it is gone, there is no record to speak of.
    writeFileSync(join(documents, 'blank.md'), '');
    expect((await ingest()).status).toBe(0);
    const priceOf = (source: string) => sql(database, `SELECT price_per_night FROM hotels WHERE "_source" = '${source}'`);
    const [archPrice] = await priceOf(join(documents, 'amber-arch-hotel.md'));
    mkdirSync(join(documents, 'archive'));
    renameSync(join(documents, 'amber-arch-hotel.md'), join(documents, 'archive/amber-arch-hotel.md'));
    renameSync(join(documents, 'amber-lantern-hotel.html'), join(documents, 'lantern.html'));
    rmSync(join(documents, 'crystal-arch-suites.txt'));
    rmSync(join(documents, 'blank.md'));
    const moved = 'moved: 2 records of hotels follow their documents to new paths instead of being extracted again (docs/archive/amber-arch-hotel.md, was docs/amber-arch-hotel.md; docs/lantern.html, was docs/amber-lantern-hotel.html)';
    const note = 'note: 1 document of hotels is gone from its path (docs/crystal-arch-suites.txt): its record stays in the table and answers count it — add --prune to remove it (a moved file keeps its record when srag ingest is given its new path)';
    standIn.reset();

    // A dry run says what the run will do, and changes nothing.
    const dry = await ingest('--dry-run');
    expect(dry.stdout).toBe('hotels (dry run, no model call): 0 documents to extract (4 more unchanged, left alone); no model call to pay for\n');
    expect(dry.stderr.trim().split('\n')).toEqual([moved.replace('follow their', 'would follow their'), note]);
    expect(await sql(database, 'SELECT count(*) FROM hotels')).toEqual([[5]]);

    const again = await ingest('--json');
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ documents: 4, done: 0, unchanged: 4, moved: 2, gone: 1, pruned: 0 });
    expect(again.stderr.trim().split('\n')).toEqual([moved, note]);
    expect(standIn.requests).toHaveLength(0);
    // Five rows still, one per content; the moved ones under their new paths, with their values and evidence.
    expect(await sql(database, 'SELECT count(*), count(DISTINCT "_content_hash") FROM hotels')).toEqual([[5, 5]]);
    expect(await priceOf(join(documents, 'archive/amber-arch-hotel.md'))).toEqual([archPrice]);
    expect(await sql(database, `SELECT count(*) FROM (SELECT "_source" AS s FROM hotels UNION ALL SELECT source FROM srag_evidence UNION ALL SELECT source FROM srag_ingestion_log)
      WHERE s IN ('${join(documents, 'amber-arch-hotel.md')}', '${join(documents, 'amber-lantern-hotel.html')}')`)).toEqual([[0]]);
    const why = await runSragInProcess(['why', 'docs/lantern.html', 'star_rating', '--db', 'hotels.duckdb'], { cwd: project });
    expect(why.status, why.stderr).toBe(0);
    expect(why.stdout.split('\n')[0]).toMatch(/^docs\/lantern\.html · star_rating = \d \(supported\)$/);

    const wouldPrune = await ingest('--prune', '--dry-run');
    expect(wouldPrune.stderr).toBe('prune: would remove the records of 1 document of hotels gone from its path (docs/crystal-arch-suites.txt)\n');
    expect(await sql(database, 'SELECT count(*) FROM hotels')).toEqual([[5]]);
    const pruned = await ingest('--prune');
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stderr).toBe('pruned: removed the records of 1 document of hotels gone from its path (docs/crystal-arch-suites.txt)\n');
    const gone = join(documents, 'crystal-arch-suites.txt');
    expect(await sql(database, `SELECT (SELECT count(*) FROM hotels), (SELECT count(*) FROM hotels WHERE "_source" = '${gone}'),
      (SELECT count(*) FROM srag_evidence WHERE source = '${gone}'), (SELECT count(*) FROM srag_ingestion_log WHERE source IN ('${gone}', '${join(documents, 'blank.md')}'))`)).toEqual([[4, 0, 0, 0]]);
    const stats = await runSragInProcess(['stats', '--db', 'hotels.duckdb', '--json'], { cwd: project });
    const table = JSON.parse(stats.stdout) as { rows: number; log: Record<string, number>; statistics: Array<{ rowCount: number }> };
    expect([table.rows, table.log, table.statistics[0]!.rowCount]).toEqual([4, { done: 4 }, 4]);
    // Nothing is gone any more: a rerun says nothing.
    const quiet = await ingest();
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toMatch(/^hotels: 0 done, 0 failed, 4 unchanged/);
  });
});

describe('--db', () => {
  it('refuses a file that is not a DuckDB database, and leaves it as it was', async () => {
    const directory = mkdtempSync(join(workDirectory, 'notes-'));
    writeFileSync(join(directory, 'notes.json'), '{"keep": "me"}\n');
    const refused = await runSragInProcess(['ingest', join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md'), '--schema', schema, '--db', join(directory, 'notes.json')], { environment: environment() });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`srag: ${join(directory, 'notes.json')} exists and is not a DuckDB database — pass a new file name (srag creates it) or an existing srag database, e.g. --db srag.duckdb\n`);
    expect(readFileSync(join(directory, 'notes.json'), 'utf8')).toBe('{"keep": "me"}\n');
    const sqlRun = await runSragInProcess(['sql', '--db', join(directory, 'notes.json'), '-c', 'SELECT 1']);
    expect(sqlRun.stderr).toMatch(/exists and is not a DuckDB database/);
  });

  it('does not create a database that ask, stats or why were pointed at by mistake', async () => {
    const missing = join(workDirectory, 'mistyped.duckdb');
    for (const args of [['ask', 'How many hotels are there?'], ['stats'], ['why', 'amber-arch-hotel.md', 'city']]) {
      const run = await runSragInProcess([...args, '--db', missing], { environment: environment() });
      expect(run.status, args[0]).toBe(2);
      expect(run.stderr).toBe(`srag: there is no database ${missing} — pass the --db you ingested into, or run \`srag ingest <docs> --schema FILE\` first\n`);
    }
    expect(existsSync(missing)).toBe(false);
  });

  it('still answers from a database file that can only be read', async () => {
    const documents = corpus('read-only', 2);
    const project = join(documents, '..');
    const database = join(project, 'hotels.duckdb');
    expect((await runSragInProcess(['ingest', 'docs/*', '--schema', schema, '--db', 'hotels.duckdb'], { cwd: project, environment: environment() })).status).toBe(0);
    chmodSync(database, 0o444);
    chmodSync(project, 0o555);
    // Root may write anyway: read as an ordinary user, as a reader of a shared file would.
    for (const directory of [workDirectory, join(project, '..')]) chmodSync(directory, 0o755);
    const asReader = process.getuid?.() === 0 ? { user: { uid: 65534, gid: 65534 } } : {};
    try {
      const stats = await runSrag(['stats', '--db', database], asReader);
      expect(stats.status, stats.stderr).toBe(0);
      expect(stats.stdout).toMatch(/^table hotels \(Hotels\) in .*hotels\.duckdb: 2 rows/);
      const ask = await runSrag(['ask', 'How many hotels are in Spain?', '--db', database], { ...asReader, environment: environment() });
      expect(ask.status, ask.stderr).toBe(0);
    } finally {
      chmodSync(project, 0o755);
    }
  });
});

describe('documents srag should not send as they are', () => {
  it('skips a symbolic link that leads out of the given directory, unless --follow-links', async () => {
    const documents = corpus('links', 2);
    const outside = join(workDirectory, 'private.txt');
    writeFileSync(outside, 'The Private Hotel has 5 stars. Password: hunter2. STAND-IN: NO-VALUES');
    symlinkSync(outside, join(documents, 'zz-link.txt'));
    const database = join(documents, '..', 'hotels.duckdb');
    standIn.reset();
    const run = await runSragInProcess(['ingest', documents, '--schema', schema, '--db', database], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe(`skipping 1 symbolic link that leads out of the given paths: ${documents}/zz-link.txt → ${outside} (pass --follow-links to read them)\n`);
    expect(standIn.requests.some((request) => JSON.stringify(request.body).includes('hunter2'))).toBe(false);
    const followed = await runSragInProcess(['ingest', documents, '--schema', schema, '--db', database, '--follow-links'], { environment: environment() });
    // The private page names no hotel of the gold data: a record with no values, read all the same.
    expect(followed.stdout).toMatch(/^hotels: 1 done \(1 with no values\), 0 failed, 2 unchanged/);
    expect(standIn.requests.some((request) => JSON.stringify(request.body).includes('hunter2'))).toBe(true);
  });

  it('skips empty and whitespace-only documents without a call, and logs them', async () => {
    const documents = corpus('empty', 2);
    writeFileSync(join(documents, 'blank.txt'), '   \n\n\t\n');
    writeFileSync(join(documents, 'nothing.md'), '');
    const database = join(documents, '..', 'hotels.duckdb');
    standIn.reset();
    const run = await runSragInProcess(['ingest', `${documents}/*`, '--schema', schema, '--db', database], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^hotels: 2 done, 0 failed, 0 unchanged, 2 empty, 0 from cache; 1 model call/);
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0]!.body.messages[1].content.match(/^<document id="/gm)).toHaveLength(2);
    expect(await sql(database, "SELECT regexp_replace(source, '.*/', ''), status FROM srag_ingestion_log WHERE status = 'empty' ORDER BY 1")).toEqual([['blank.txt', 'empty'], ['nothing.md', 'empty']]);
  });

  it('warns before a document that needs more calls than SRAG_WARN_CALLS_PER_DOCUMENT, with its estimate', async () => {
    const documents = corpus('long', 0);
    writeFileSync(join(documents, 'long.md'), 'STAND-IN: NO-VALUES\n\n' + Array.from({ length: 300 }, (_, index) => `## Room ${index}\n\nA quiet room facing the courtyard, with a desk, a wardrobe and a view of the old town.`).join('\n\n'));
    const database = join(documents, '..', 'hotels.duckdb');
    const run = await runSragInProcess(['ingest', `${documents}/*`, '--schema', schema, '--db', database], { environment: environment({ SRAG_MAX_INPUT_TOKENS: '3000', SRAG_WARN_CALLS_PER_DOCUMENT: '2' }) });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^warning: \S*long\.md is long: it needs about \d+ model calls \(~\d+(\.\d)? k prompt tokens\), more than the 2 a document is expected to take$/m);
  });
});

describe('records with no values', () => {
  it('reports them beside the done count and in srag stats, instead of a plain success', async () => {
    const documents = corpus('no-values', 1);
    writeFileSync(join(documents, 'menu.txt'), 'Soup of the day: tomato. Dessert: apple pie. STAND-IN: NO-VALUES');
    writeFileSync(join(documents, 'notice.txt'), 'The reading room closes at ten in the evening. STAND-IN: NO-VALUES');
    const database = join(documents, '..', 'hotels.duckdb');
    const run = await runSragInProcess(['ingest', `${documents}/*`, '--schema', schema, '--db', database], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^hotels: 3 done \(2 with no values\), 0 failed/);
    expect(run.stderr).toMatch(/^2 records hold no value at all/);
    const stats = await runSragInProcess(['stats', '--db', database]);
    expect(stats.stdout).toMatch(/^table hotels \(Hotels\) in .*: 3 rows \(2 with no values: /);
  });
});
