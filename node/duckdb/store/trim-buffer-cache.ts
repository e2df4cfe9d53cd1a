import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * What DuckDB may keep of the file's blocks in memory between an ingest's group commits. It keeps
 * every block a checkpoint wrote until its memory limit (80% of the machine's memory) is reached:
 * 146 MB of the table's blocks at 100,000 documents, growing with the table, none of them needed
 * again by the run (it only appends).
 */
export const ingestBufferCacheBytes = 64 * 1024 * 1024;

/**
 * How far the process's resident memory may grow past where the last hand-back left it before the
 * next group commit hands freed memory back to the system. Each commit (and each checkpoint, which
 * grows with the table: +50–110 MB at 100,000 documents) frees what it allocated to the C library's
 * allocator, which keeps it (a thread pool's threads each have their own arena); at 100,000
 * documents that was 80–140 MB held for nothing between hand-backs. A hand-back costs its
 * statement, and touching the pages again later: not done while little was freed.
 */
export const ingestMemoryRegrowthBytes = 32 * 1024 * 1024;

/**
 * The resident memory below which the trimmer leaves DuckDB's memory alone (unless a call asks for
 * a hand-back): it neither drops blocks nor hands memory back, and runs no query. Keeping memory
 * flat matters in long runs, and a hand-back is paid twice: `malloc_trim(0)` and the purge of
 * DuckDB's own allocator, then a page fault for each page the next commits touch again. A
 * 3,000-page ingest, whose resident memory stays near 200 MB, handed back twice for nothing;
 * 100,000 pages pass this early and are trimmed as before, from where their first commit left
 * resident memory.
 */
export const handBackAboveBytes = 256 * 1024 * 1024;

/**
 * What DuckDB may keep of the file's blocks when a group commit is about to checkpoint (see
 * `checkpointSoonBytes`); the memory freed since the last hand-back is handed back then too. The
 * checkpoint's own memory (+70–160 MB at 100,000 documents) comes on top of what the process holds
 * then: 300–330 MB before, 250–265 MB with the pool trimmed and the memory handed back first.
 */
export const checkpointBufferCacheBytes = 8 * 1024 * 1024;

/**
 * How large the write-ahead log grows before a group commit is taken as one that may checkpoint:
 * DuckDB checkpoints at the commit that brings it to 16 MiB (`wal_autocheckpoint`); a group commit
 * of an ingest adds 0.5–2 MB.
 */
export const checkpointSoonBytes = 12 * 1024 * 1024;

/**
 * A function, called after each group commit, that lets DuckDB's buffer pool drop what it holds
 * above `bytes` (or the `bytes` of the call) and hands the memory DuckDB freed back to the system
 * once the process's resident memory (`residentBytes`) grew `regrowthBytes` past where the last
 * hand-back left it (or when the call says `handBack`); while resident memory is below
 * `aboveBytes` it does neither, unless the call says `handBack`.
 *
 * Both go through the memory limit: it is lowered to `bytes` and set back at once, so that no
 * statement ever runs under the lower limit (none can fail for lack of memory because of this);
 * blocks of the file are dropped (read again from it if a query needs them); DuckDB refuses the
 * lower limit, keeping its own, when what it holds cannot be dropped — then only the hand-back is
 * done. Setting the limit, even to the value it has, is what hands memory back: DuckDB's
 * `BufferPool::SetLimit` ends with `Allocator::FlushAll`, which is `malloc_trim(0)` on glibc
 * (duckdb/duckdb src/storage/buffer/buffer_pool.cpp and src/common/allocator.cpp; measured with
 * 1.5.5: 261 → 24 MB anonymous memory after a 237 MB table was dropped, in 80 ms). Elsewhere
 * it only drops blocks. One query when there is nothing to do; none below `aboveBytes`.
 *
 * The limit set back is the one read at the first call: DuckDB shows it rounded (`18.8 GiB`), and
 * reading it again after each trim would let it creep down.
 */
export function bufferCacheTrimmer(bytes: number, { regrowthBytes = ingestMemoryRegrowthBytes, aboveBytes = handBackAboveBytes, residentBytes = () => process.memoryUsage.rss() }: {
  regrowthBytes?: number;
  /** Nothing is done while resident memory is below this, unless the call says `handBack` (see `handBackAboveBytes`). */
  aboveBytes?: number;
  residentBytes?: () => number;
} = {}): (connection: DuckDBConnection, call?: { bytes?: number; handBack?: boolean }) => Promise<void> {
  let limit: string | undefined;
  /** The resident memory the last hand-back left (at the first call, however small: what there was). */
  let floor: number | undefined;
  return async (connection, { bytes: bytesNow = bytes, handBack = false } = {}) => {
    const resident = residentBytes();
    floor ??= resident;
    if (!handBack && resident < aboveBytes) return;
    // `current_setting`, not a scan of `duckdb_settings()`, which formats every setting: ~2 ms of CPU a call, at every group commit.
    const [held, current] = (await connection.runAndReadAll(
      "SELECT (SELECT sum(memory_usage_bytes) FROM duckdb_memory()), current_setting('memory_limit')",
    )).getRowsJS()[0]!;
    limit ??= String(current);
    const regrown = handBack || resident - floor >= regrowthBytes;
    if (Number(held) <= bytesNow && !regrown) return;
    if (Number(held) > bytesNow) {
      try {
        await connection.run(memoryLimitSql(bytesNow));
      } catch {
        // What DuckDB holds cannot go below `bytes` now (pinned by a statement, or not yet written): it keeps it.
        if (!regrown) return;
      }
    }
    await connection.run(memoryLimitSql(limit));
    floor = residentBytes();
  };
}

/** `SET memory_limit` to `bytes`, or back to a limit as DuckDB showed it (`18.8 GiB`). */
export function memoryLimitSql(limit: number | string): string {
  return typeof limit === 'number' ? `SET memory_limit = '${Math.floor(limit / 1024)}KiB'` : `SET memory_limit = '${limit.replace(/'/g, "''")}'`;
}
