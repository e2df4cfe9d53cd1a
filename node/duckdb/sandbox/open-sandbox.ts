import { DuckDBInstance } from '../duckdb-node-api.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
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
 * installed or loaded, and the configuration is locked so no statement can undo any of it. Each
 * table is a view that casts the file's columns back to the source's types (Parquet has no ENUM,
 * for one), so the query sees the table as the database has it.
 */
export async function openSandbox(tables: SandboxTable[], limits: SandboxLimits): Promise<Sandbox> {
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    memory_limit: `${limits.memoryMegabytes}MB`,
    threads: String(limits.threads),
  });
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    await connection.run(`SET temp_directory = ''`);
    await connection.run(`SET allowed_paths = [${tables.map((table) => quoteLiteral(table.file)).join(', ')}]`);
    await connection.run('SET enable_external_access = false');
    for (const table of tables) {
      const typeOf = new Map(table.columns.map((column) => [column.name, column.type]));
      const selected = [
        ...table.columns.map((column) => `CAST(${quoteIdentifier(column.name)} AS ${column.type}) AS ${quoteIdentifier(column.name)}`),
        ...table.aliases.map((alias) => `CAST(${quoteIdentifier(alias.of)} AS ${typeOf.get(alias.of) ?? 'VARCHAR'}) AS ${quoteIdentifier(alias.name)}`),
      ];
      await connection.run(`CREATE VIEW ${quoteIdentifier(table.name)} AS SELECT ${selected.join(', ')} FROM read_parquet(${quoteLiteral(table.file)})`);
    }
    await connection.run('SET lock_configuration = true');
    return { connection, close };
  } catch (error) {
    close();
    throw error;
  }
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
