import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRecordSchema, SragError } from '../../core/index.ts';
import { quoteShellArgument } from '../../node/runtime/quote-shell-argument.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { caught } from '../helpers/caught.ts';
import { runProcess } from '../helpers/run-process.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';

const cliPath = fileURLToPath(new URL('../../bin/srag.js', import.meta.url));
const schema = parseRecordSchema({ title: 'Hotel', properties: { city: { type: 'string', description: 'City.' }, stars: { type: 'integer', description: 'Stars.' } } });
/** Shares no attribute with `schema`: a table is grown with a schema that shares some, refused one that shares none. */
const otherSchema = parseRecordSchema({ title: 'Hotel', properties: { country: { type: 'string', description: 'The country.' } } });
/** A name a shell and SQL both have to quote: a space, a single and a double quote, a dollar. */
const oddName = `o'brien "best" $HOME`;

/** A database in a directory whose name needs quoting too, with one record table, its log and evidence. */
async function databaseWith(table: string): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), "srag drop '")), 'my hotels.duckdb');
  const store = await SragStore.open(path);
  try {
    await store.registerTable(table, schema);
    const records = store.extractionStore(table, schema);
    for (const [index, city] of ['Paris', 'Rome'].entries()) {
      await records.saveRecord({
        source: `docs/${index}.txt`, contentHash: `hash-${index}`, values: { city, stars: 4 }, issues: [],
        evidence: [{ attribute: 'city', value: city, raw: city, quote: city, status: 'supported', reason: null }],
      });
    }
    await records.saveLogEntry({ source: 'docs/broken.txt', contentHash: 'hash-x', status: 'failed', error: 'unreadable' });
  } finally {
    store.close();
  }
  return path;
}

async function catalogCounts(path: string, table: string): Promise<number[]> {
  const store = await SragStore.open(path);
  try {
    const count = async (sql: string) => Number((await store.connection.runAndReadAll(sql, [table])).getRowsJS()[0]![0]);
    return [
      await count("SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = $1"),
      await count('SELECT count(*) FROM srag_tables WHERE table_name = $1'),
      await count('SELECT count(*) FROM srag_ingestion_log WHERE table_name = $1'),
      await count('SELECT count(*) FROM srag_evidence WHERE table_name = $1'),
    ];
  } finally {
    store.close();
  }
}

/** Runs one line in bash with `srag` standing for this checkout's CLI: what a user pasting a hint does. */
function runInBash(line: string, cwd: string) {
  return runProcess('bash', ['-c', `srag() { ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} "$@"; }\n${line}`], { cwd, env: process.env as Record<string, string> });
}

describe('srag drop', () => {
  it('removes the table and every catalog row of it in one go, and says what it removed', async () => {
    const path = await databaseWith('hotels');
    expect(await catalogCounts(path, 'hotels')).toEqual([1, 1, 3, 2]);
    const run = await runSragInProcess(['drop', 'hotels', '--db', path, '--yes']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`dropped table "hotels" (2 rows) and its catalog rows: schema and statistics, 3 ingestion-log entries, 2 evidence rows from ${path}\n`);
    expect(await catalogCounts(path, 'hotels')).toEqual([0, 0, 0, 0]);
  });

  it('asks before it deletes: without a terminal it refuses and names the command with --yes', async () => {
    const path = await databaseWith('hotels');
    const run = await runSragInProcess(['drop', 'hotels', '--db', path]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    // The command as a shell reads it back, the path's quote and space included.
    const command = /— (srag drop .*)$/.exec(run.stderr.trim())![1]!;
    expect(spawnSync('bash', ['-c', `set -- ${command}; printf '%s\\0' "$@"`], { encoding: 'utf8' }).stdout.split('\0').slice(0, -1))
      .toEqual(['srag', 'drop', 'hotels', '--yes', '--db', path]);
    expect(await catalogCounts(path, 'hotels')).toEqual([1, 1, 3, 2]);
  });

  it('asks on a terminal, keeps everything on no and drops on yes', async () => {
    const path = await databaseWith('hotels');
    const onTerminal = (answer: string) => runInBash(
      `printf '${answer}\\n' | script -qec ${quoteShellArgument(`${process.execPath} ${cliPath} drop hotels --db ${quoteShellArgument(path)}`)} /dev/null`,
      tmpdir(),
    );
    const declined = await onTerminal('n');
    expect(declined.stdout).toContain(`Drop table "hotels" (2 rows) and its catalog rows`);
    expect(declined.stdout).toContain('nothing dropped');
    expect(declined.status).toBe(1);
    expect(await catalogCounts(path, 'hotels')).toEqual([1, 1, 3, 2]);
    const accepted = await onTerminal('y');
    expect(accepted.status, accepted.stdout).toBe(0);
    expect(await catalogCounts(path, 'hotels')).toEqual([0, 0, 0, 0]);
  });

  it('repairs a catalog whose table was dropped by hand, and refuses srag\'s own tables and unknown names', async () => {
    const path = await databaseWith('hotels');
    const store = await SragStore.open(path);
    await store.connection.run('DROP TABLE hotels');
    store.close();
    const run = await runSragInProcess(['drop', 'HOTELS', '--db', path, '--yes']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('the catalog rows of table "hotels" (the table itself is already gone)');
    expect(await catalogCounts(path, 'hotels')).toEqual([0, 0, 0, 0]);
    expect((await runSragInProcess(['drop', 'srag_cache', '--db', path, '--yes'])).stderr).toContain("\"srag_cache\" is one of srag's own tables");
    expect((await runSragInProcess(['drop', 'nothing', '--db', path, '--yes'])).stderr).toContain('no table "nothing" in');
  });

  it('gives a schema-mismatch hint that works when pasted into bash, whatever the table and file are called', async () => {
    const path = await databaseWith(oddName);
    const store = await SragStore.open(path);
    const error = await caught(store.registerTable(oddName, otherSchema)).finally(() => store.close());
    expect(SragError.isInstance(error)).toBe(true);
    const command = /drop it first: (.+)$/.exec((error as SragError).hint ?? '')?.[1];
    expect(command).toBeDefined();
    const pasted = await runInBash(`${command} --yes`, tmpdir());
    expect(pasted.status, pasted.stderr).toBe(0);
    expect(pasted.stdout).toContain(`dropped table "${oddName}" (2 rows)`);
    expect(await catalogCounts(path, oddName)).toEqual([0, 0, 0, 0]);
    const again = await SragStore.open(path);
    try {
      await again.registerTable(oddName, otherSchema);
    } finally {
      again.close();
    }
  });
});
