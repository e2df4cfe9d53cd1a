import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { DuckDBInstance } from '../duckdb-node-api.ts';
import { firstLine, SragError } from '../../../core/index.ts';
import { describeLockHolder } from '../../runtime/describe-lock-holder.ts';
import { readFileStart } from '../../runtime/read-file-start.ts';
import { quoteIdentifier } from '../quote-identifier.ts';

export interface OpenDuckDbFileOptions {
  /** Refuse a file that does not exist rather than create it (commands that only read: ask, stats, why). */
  mustExist?: boolean;
  /**
   * The file is opened for `srag ingest`'s writes: its rows go in row groups of
   * `ingestRowGroupRows`, not `rowGroupRows` (see there why only then), and DuckDB runs its
   * statements on one thread (`ingestThreads`).
   */
  forIngest?: boolean;
}

/** The magic DuckDB writes at byte 8 of every database file. */
const duckDbMagic = 'DUCK';

/**
 * Rows per row group of a file srag opens (DuckDB's default is 122,880). A checkpoint rewrites
 * every row group that was appended to, whole: with the default, srag_cache (a reply of ~8 KB a
 * row), a record table and srag_ingestion_log stay one row group each up to 122,880 rows, so each
 * checkpoint of an ingest re-read and rewrote all of them — at 100,000 documents 95 MB of replies,
 * +85–99 MB of memory and 0.3–1 s a checkpoint, growing with the file. With 8,192 rows only the
 * last group of each is rewritten. Not kept in the file: given at every open (another program
 * opening it with the default merges small groups at its first checkpoint, which is harmless).
 */
export const rowGroupRows = 8_192;

/**
 * Rows per row group of a file `srag ingest` opens. A transaction that appends a row group or more
 * to a table writes it to the file, compressed, at its COMMIT, and an ingest's group commit holds
 * ~10,000 evidence rows (750 pages): with 8,192 each such commit compressed them there, and the
 * close's checkpoint took no less (bench/ingest-store-writes.ts --waves 4 --statements: COMMIT
 * 35–50 ms each against 12–18). `npm run bench -- --cli-only --memory-documents 100000` on
 * 29 November: 100,000 pages peaked at 294 and 301 MB (VmHWM) with 16,384, 359–378 MB with 8,192.
 * Not (yet) for every open: a million-page `srag_extract`, whose journal apply rewrites its tables'
 * last row groups at each checkpoint, was measured with 8,192 only (834 MiB, goal 1 GB), and its
 * 100,000-page run read 662 MB with 16,384 against 581 (same window) and 569–655 with 8,192.
 */
export const ingestRowGroupRows = 16_384;

/**
 * Opens the DuckDB file at `path` (or `:memory:`). A file that exists but is not a DuckDB database
 * (`notes.json`, `data.csv`) is refused — DuckDB would open it as an empty in-memory database and
 * every paid reply would be lost. A file that cannot be opened for writing (read-only file or
 * directory) is opened read-only, so it can still be queried.
 *
 * A file is attached to an instance in memory with `rowGroupRows` rows a row group (`ingestRowGroupRows`
 * for `srag ingest`; an option only
 * ATTACH takes) under the name DuckDB gives a file it opens itself, and every connection of the
 * instance starts in it (`instance.connect` is wrapped), so statements and `current_database()`
 * read as they would on the file opened directly.
 */
export async function openDuckDbFile(path: string, { mustExist = false, forIngest = false }: OpenDuckDbFileOptions = {}): Promise<{ instance: DuckDBInstance; readOnly: boolean }> {
  if (path === ':memory:' || path.startsWith(':memory:')) return { instance: await DuckDBInstance.create(path, forIngest ? ingestSettings : {}), readOnly: false };
  checkDatabaseFile(path, mustExist);
  const rows = forIngest ? ingestRowGroupRows : rowGroupRows;
  try {
    return { instance: await attachDatabaseFile(path, false, rows, forIngest), readOnly: false };
  } catch (error) {
    const message = firstLine((error as Error).message);
    if (/permission denied|read-only|readonly/i.test(message)) {
      try {
        return { instance: await attachDatabaseFile(path, true, rows, forIngest), readOnly: true };
      } catch {
        // Report the first error: it names the cause.
      }
    }
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `cannot open the database ${path}: ${message}`,
      hint: /lock/i.test(message) ? describeLockHolder(message) ?? 'another srag process has it open; wait for it or use another --db' : 'check the --db path',
      cause: error,
    });
  }
}

/**
 * DuckDB's threads for `srag ingest`: the one that runs each statement (node-api's pool), with
 * none of DuckDB's own beside it. An ingest's statements are small writes, one at a time (the
 * store's queue), and its largest are the statistics of one table at the end; with DuckDB's
 * default (a thread per core) the calling thread waited for the others' tasks by asking again and
 * again, and the store's work cost a quarter more CPU (`bench/ingest-store-writes.ts`, 3,000
 * pages' writes from open to close: 1.16–1.61 s of CPU against 0.87–1.20 s with one thread, 6 runs
 * each; its checkpoint 0.14–0.33 s against 0.13–0.18 s). Given when the instance is made: a
 * `SET threads = 1` after it stopped the thread DuckDB had started and handed its memory back
 * (~17 ms of a one-page ingest). For the ingest only: a query of `srag sql` or `srag serve` over
 * a large table gains from every core.
 */
export const ingestThreads = 1;

/** The instance settings of an ingest's DuckDB. */
const ingestSettings = { threads: String(ingestThreads) };

/** Names DuckDB gives databases of its own: a file of such a name is attached as `srag_database`. */
const reservedDatabaseNames = new Set(['memory', 'system', 'temp', 'main']);

/**
 * The instance in memory with the file at `path` attached (see `openDuckDbFile`); its spill files
 * beside the file, as DuckDB puts them; `ingestThreads` threads for an ingest, else DuckDB's default.
 */
async function attachDatabaseFile(path: string, readOnly: boolean, rowGroupRows: number, forIngest: boolean): Promise<DuckDBInstance> {
  const instance = await DuckDBInstance.create(':memory:', { temp_directory: `${path}.tmp`, ...forIngest ? ingestSettings : {} });
  // DuckDB names a file it opens by its base name up to the first dot (srag.duckdb → srag).
  const inferred = basename(path).split('.')[0]!;
  const name = quoteIdentifier(inferred === '' || reservedDatabaseNames.has(inferred.toLowerCase()) ? 'srag_database' : inferred);
  const connection = await instance.connect();
  try {
    await connection.run(`ATTACH '${path.replace(/'/g, "''")}' AS ${name} (ROW_GROUP_SIZE ${rowGroupRows}${readOnly ? ', READ_ONLY' : ''})`);
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  connection.closeSync();
  const connect = instance.connect.bind(instance);
  instance.connect = async () => {
    const opened = await connect();
    await opened.run(`USE ${name}`);
    return opened;
  };
  return instance;
}

function checkDatabaseFile(path: string, mustExist: boolean): void {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) {
    if (mustExist) throw new SragError({ code: 'INPUT_INVALID', message: `there is no database ${path}`, hint: 'pass the --db you ingested into, or run `srag ingest <docs> --schema FILE` first' });
    return;
  }
  if (info.isDirectory()) throw new SragError({ code: 'INPUT_INVALID', message: `--db ${path} is a directory, not a DuckDB file`, hint: 'pass a file name such as srag.duckdb' });
  const header = readFileStart(path, 12);
  if (header.length < 12 || header.subarray(8, 12).toString('latin1') !== duckDbMagic) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `${path} exists and is not a DuckDB database`,
      hint: 'pass a new file name (srag creates it) or an existing srag database, e.g. --db srag.duckdb',
    });
  }
}
