import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '../../node/duckdb/duckdb-node-api.ts';
import { bufferCacheTrimmer } from '../../node/duckdb/store/trim-buffer-cache.ts';

describe("DuckDB's buffer cache between an ingest's group commits", () => {
  it('drops the blocks of the file it holds beyond the given size (or the size a call asks for), and leaves its memory limit as it was', async () => {
    const instance = await DuckDBInstance.create(join(mkdtempSync(join(tmpdir(), 'srag-trim-')), 'trim.duckdb'));
    const connection = await instance.connect();
    try {
      await connection.run("CREATE TABLE t AS SELECT i, repeat('evidence quote ', 8) || i AS quote FROM range(900000) r(i)");
      await connection.run('CHECKPOINT');
      await connection.run('SELECT count(DISTINCT quote), max(i) FROM t');
      const state = async () => (await connection.runAndReadAll(
        "SELECT (SELECT sum(memory_usage_bytes) FROM duckdb_memory()), (SELECT value FROM duckdb_settings() WHERE name = 'memory_limit')",
      )).getRowsJS()[0]!.map((cell) => (typeof cell === 'bigint' ? Number(cell) : cell));
      const [heldBefore, limitBefore] = await state();
      expect(heldBefore).toBeGreaterThan(8 * 1024 * 1024);
      const trim = bufferCacheTrimmer(2 * 1024 * 1024);
      await trim(connection);
      const [heldAfter, limitAfter] = await state();
      // Down to about the size given: DuckDB's own bookkeeping of the moment may count a few hundred kB above it.
      expect(heldAfter).toBeLessThanOrEqual(4 * 1024 * 1024);
      // Set back at once: no later statement runs under the lower limit (shown rounded, hence the first digits only).
      expect(String(limitAfter).slice(0, 2)).toBe(String(limitBefore).slice(0, 2));
      expect(String(limitAfter)).toMatch(/GiB|MiB/);
      // The rows are read again from the file when a query needs them.
      expect((await connection.runAndReadAll('SELECT count(*) FROM t')).getRowsJS()).toEqual([[900000n]]);
      // A call may ask for less than the size given (before a commit that checkpoints): that call drops to it.
      await connection.run('SELECT count(DISTINCT quote), max(i) FROM t');
      const lenient = bufferCacheTrimmer(1024 * 1024 * 1024);
      await lenient(connection);
      expect((await state())[0]).toBeGreaterThan(8 * 1024 * 1024);
      await lenient(connection, { bytes: 2 * 1024 * 1024 });
      expect((await state())[0]).toBeLessThanOrEqual(4 * 1024 * 1024);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  // glibc only: elsewhere setting the limit drops blocks and hands nothing back.
  const anonymousMegabytes = (): number | undefined => {
    try {
      return Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
    } catch {
      return undefined;
    }
  };
  const glibc = process.platform === 'linux' && (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime !== undefined;

  it.runIf(glibc)('hands the memory DuckDB freed back to the system once resident memory grew past the regrowth allowed, and not before (unless a call asks)', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      let resident = 0;
      const trim = bufferCacheTrimmer(1024 * 1024 * 1024, { regrowthBytes: 32 * 1024 * 1024, residentBytes: () => resident });
      // The first call notes where resident memory is.
      await trim(connection);
      // What a checkpoint does to the C library's allocator: ~100 MB allocated, then freed (and kept by it).
      await connection.run("CREATE TABLE t AS SELECT i, repeat('evidence quote ', 6) || i AS quote FROM range(1000000) r(i)");
      await connection.run('DROP TABLE t');
      const freed = anonymousMegabytes()!;
      resident = 31 * 1024 * 1024;
      await trim(connection);
      // Grown less than allowed: kept (a hand-back costs its pages touched again).
      expect(anonymousMegabytes()!).toBeGreaterThan(freed - 30);
      resident = 33 * 1024 * 1024;
      await trim(connection);
      expect(anonymousMegabytes()!).toBeLessThan(freed - 60);
      // A call before a commit that checkpoints hands back whatever was freed, grown or not.
      await connection.run("CREATE TABLE t AS SELECT i, repeat('evidence quote ', 6) || i AS quote FROM range(1000000) r(i)");
      await connection.run('DROP TABLE t');
      const freedAgain = anonymousMegabytes()!;
      await trim(connection, { handBack: true });
      expect(anonymousMegabytes()!).toBeLessThan(freedAgain - 60);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
