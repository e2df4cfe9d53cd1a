import { statSync } from 'node:fs';
import { DuckDBInstance } from '../duckdb-node-api.ts';
import { firstLine, SragError } from '../../../core/index.ts';
import { describeLockHolder } from '../../runtime/describe-lock-holder.ts';
import { readFileStart } from '../../runtime/read-file-start.ts';

export interface OpenDuckDbFileOptions {
  /** Refuse a file that does not exist rather than create it (commands that only read: ask, stats, why). */
  mustExist?: boolean;
}

/** The magic DuckDB writes at byte 8 of every database file. */
const duckDbMagic = 'DUCK';

/**
 * Opens the DuckDB file at `path` (or `:memory:`). A file that exists but is not a DuckDB database
 * (`notes.json`, `data.csv`) is refused — DuckDB would open it as an empty in-memory database and
 * every paid reply would be lost. A file that cannot be opened for writing (read-only file or
 * directory) is opened read-only, so it can still be queried.
 */
export async function openDuckDbFile(path: string, { mustExist = false }: OpenDuckDbFileOptions = {}): Promise<{ instance: DuckDBInstance; readOnly: boolean }> {
  if (path !== ':memory:' && !path.startsWith(':memory:')) checkDatabaseFile(path, mustExist);
  try {
    return { instance: await DuckDBInstance.create(path), readOnly: false };
  } catch (error) {
    const message = firstLine((error as Error).message);
    if (/permission denied|read-only|readonly/i.test(message)) {
      try {
        return { instance: await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' }), readOnly: true };
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
