import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * What DuckDB may keep of the file's blocks in memory between an ingest's group commits. It keeps
 * every block a checkpoint wrote until its memory limit (80% of the machine's memory) is reached:
 * 146 MB of the table's blocks at 100,000 documents, growing with the table, none of them needed
 * again by the run (it only appends).
 */
export const ingestBufferCacheBytes = 64 * 1024 * 1024;

/**
 * A function that lets DuckDB's buffer pool drop what it holds above `bytes`: the memory limit is
 * lowered to it and set back at once, so that no statement ever runs under the lower limit (none
 * can fail for lack of memory because of this). Blocks of the file are dropped (read again from it
 * if a query needs them); DuckDB refuses the lower limit, keeping its own, when what it holds cannot
 * be dropped — then nothing changes. One query when nothing needs dropping.
 *
 * The limit set back is the one read at the first call: DuckDB shows it rounded (`18.8 GiB`), and
 * reading it again after each trim would let it creep down.
 */
export function bufferCacheTrimmer(bytes: number): (connection: DuckDBConnection) => Promise<void> {
  let limit: string | undefined;
  return async (connection) => {
    const [held, current] = (await connection.runAndReadAll(
      "SELECT (SELECT sum(memory_usage_bytes) FROM duckdb_memory()), (SELECT value FROM duckdb_settings() WHERE name = 'memory_limit')",
    )).getRowsJS()[0]!;
    if (Number(held) <= bytes) return;
    limit ??= String(current);
    try {
      await connection.run(`SET memory_limit = '${Math.floor(bytes / 1024)}KiB'`);
    } catch {
      // What DuckDB holds cannot go below `bytes` now (pinned by a statement, or not yet written): it keeps it.
      return;
    }
    await connection.run(`SET memory_limit = '${limit.replace(/'/g, "''")}'`);
  };
}
