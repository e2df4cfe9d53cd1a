import { DuckDBInstance } from '../duckdb-node-api.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sep } from 'node:path';
import { quoteIdentifier } from '../quote-identifier.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import type { SandboxColumn } from './sandbox-table-source.ts';

/** One table as the sandbox shows it: a view over the Parquet file its source exported. */
export interface SandboxTable {
  name: string;
  file: string;
  /** The columns in the file, with their types in the source table. */
  columns: SandboxColumn[];
  aliases: Array<{ name: string; of: string }>;
}

export interface Sandbox {
  connection: DuckDBConnection;
  close(): void;
}

/**
 * A fresh in-memory DuckDB that holds only `tables`, for one generated query. Before anything
 * untrusted runs, it is bounded (memory, threads, no spilling: there is no temp directory at all)
 * and shut: external access is off except for reading the exported files, extensions cannot be
 * installed or loaded, and the configuration is locked so no statement can undo any of it. It runs
 * on one thread unless a table's file is large enough for more (`spansRowGroups`). Each
 * table is a view that casts the file's columns back to the source's types (Parquet has no ENUM,
 * for one), so the query sees the table as the database has it.
 */
export async function openSandbox(tables: SandboxTable[], limits: SandboxLimits): Promise<Sandbox> {
  return openLocked(`allowed_paths = [${tables.map((table) => quoteLiteral(table.file)).join(', ')}]`, limits, async (connection) => {
    if (limits.threads > 1 && await spansRowGroups(connection, tables)) await connection.run(`SET threads = ${limits.threads}`);
    await createViews(connection, tables);
  });
}

/**
 * A sandbox DuckDB kept for query after query of one sandbox process (see sandbox-process.ts): the
 * bounds and locked configuration of `openSandbox`, on one thread, reading only files under
 * `directory` — the process's own, which holds one request's files at a time, under a name no
 * earlier request's had, and none between requests (see `runInSandboxProcess`); DuckDB's cache of
 * files is off, so nothing it read for one request is served to another. `attach` shows a request's tables as `openSandbox` does;
 * `detach` drops them again. A fresh DuckDB and its first query cost ~25 ms of CPU more than a
 * query in one kept (13 ms to make it, 4 to close it, ~7 more for its first query; 3,000 rows).
 */
export interface ReusableSandbox extends Sandbox {
  attach(tables: SandboxTable[]): Promise<void>;
  detach(tables: SandboxTable[]): Promise<void>;
}

export async function openReusableSandbox(directory: string, limits: SandboxLimits): Promise<ReusableSandbox> {
  const directoryPrefix = directory.endsWith(sep) ? directory : `${directory}${sep}`;
  const sandbox = await openLocked(`allowed_directories = [${quoteLiteral(directoryPrefix)}]`, limits, async (connection) => {
    // Nothing of one request's files is kept for the next (DuckDB keeps what it read of a file by its path).
    await connection.run('SET enable_external_file_cache = false');
  });
  return {
    ...sandbox,
    attach: (tables) => createViews(sandbox.connection, tables),
    async detach(tables) {
      for (const table of tables) await sandbox.connection.run(`DROP VIEW IF EXISTS ${quoteIdentifier(table.name)}`);
    },
  };
}

/** Whether a request's files call for more threads than a kept sandbox has (see `spansRowGroups`). */
export async function needsMoreThreads(connection: DuckDBConnection, tables: SandboxTable[], limits: SandboxLimits): Promise<boolean> {
  return limits.threads > 1 && await spansRowGroups(connection, tables);
}

/**
 * An in-memory DuckDB bounded by `limits` on one thread, reading only what `allowed` (a setting)
 * names, with `prepare` run before its configuration is locked.
 */
async function openLocked(allowed: string, limits: SandboxLimits, prepare: (connection: DuckDBConnection) => Promise<void>): Promise<Sandbox> {
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    memory_limit: `${limits.memoryMegabytes}MB`,
    // One thread until a file is seen to need more (see `spansRowGroups`).
    threads: '1',
  });
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    await connection.run(`SET temp_directory = ''`);
    await connection.run(`SET ${allowed}`);
    await connection.run('SET enable_external_access = false');
    await prepare(connection);
    await connection.run('SET lock_configuration = true');
    return { connection, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** Each table as a view that casts the file's columns back to the source's types. */
async function createViews(connection: DuckDBConnection, tables: SandboxTable[]): Promise<void> {
  for (const table of tables) {
    const typeOf = new Map(table.columns.map((column) => [column.name, column.type]));
    const selected = [
      ...table.columns.map((column) => `CAST(${quoteIdentifier(column.name)} AS ${column.type}) AS ${quoteIdentifier(column.name)}`),
      ...table.aliases.map((alias) => `CAST(${quoteIdentifier(alias.of)} AS ${typeOf.get(alias.of) ?? 'VARCHAR'}) AS ${quoteIdentifier(alias.name)}`),
    ];
    await connection.run(`CREATE VIEW ${quoteIdentifier(table.name)} AS SELECT ${selected.join(', ')} FROM read_parquet(${quoteLiteral(table.file)})`);
  }
}

/**
 * Whether a file holds more than one Parquet row group (the export writes one per 122,880 rows):
 * DuckDB scans a row group on one thread, so a query over files of one row group each gains
 * nothing from more. A second thread cost ~9 ms of CPU per sandbox in isolation (a fresh DuckDB
 * 18.2 against 15.6 ms, its query 14.2–14.9 against 10.0–10.5, closing it 5.6 against 4.5); a
 * question's sandbox process, this check included, used a median of 7 ms less (40 queries over
 * 3,000 rows, 6 alternating runs, 5 lower: 40–55 against 47–62 ms per query).
 */
async function spansRowGroups(connection: DuckDBConnection, tables: SandboxTable[]): Promise<boolean> {
  if (tables.length === 0) return false;
  const reader = await connection.runAndReadAll(`SELECT coalesce(max(row_group_id), 0) > 0 FROM parquet_metadata([${tables.map((table) => quoteLiteral(table.file)).join(', ')}])`);
  return reader.getRowsJS()[0]![0] === true;
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
