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
      // However small the process is (the size below which nothing is trimmed is tested below).
      const trim = bufferCacheTrimmer(2 * 1024 * 1024, { aboveBytes: 0 });
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
      const lenient = bufferCacheTrimmer(1024 * 1024 * 1024, { aboveBytes: 0 });
      await lenient(connection);
      expect((await state())[0]).toBeGreaterThan(8 * 1024 * 1024);
      await lenient(connection, { bytes: 2 * 1024 * 1024 });
      expect((await state())[0]).toBeLessThanOrEqual(4 * 1024 * 1024);
      // A process smaller than `aboveBytes` is left alone: nothing dropped, unless the call asks for a hand-back.
      await connection.run('SELECT count(DISTINCT quote), max(i) FROM t');
      const small = bufferCacheTrimmer(2 * 1024 * 1024, { aboveBytes: Number.MAX_SAFE_INTEGER });
      await small(connection);
      expect((await state())[0]).toBeGreaterThan(8 * 1024 * 1024);
      await small(connection, { handBack: true });
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

  it.runIf(glibc)('hands the memory DuckDB freed back to the system once resident memory grew past the regrowth allowed and is large, and not before (unless a call asks)', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const megabytes = 1024 * 1024;
    // What a checkpoint does to the C library's allocator: ~100 MB allocated, then freed (and kept by it).
    const allocateAndFree = async () => {
      await connection.run("CREATE TABLE t AS SELECT i, repeat('evidence quote ', 6) || i AS quote FROM range(1000000) r(i)");
      await connection.run('DROP TABLE t');
      return anonymousMegabytes()!;
    };
    try {
      let resident = 100 * megabytes;
      const trim = bufferCacheTrimmer(1024 * 1024 * 1024, { regrowthBytes: 32 * megabytes, aboveBytes: 256 * megabytes, residentBytes: () => resident });
      // The first call notes where resident memory is.
      await trim(connection);
      // Grown twice the regrowth allowed, but still below 256 MB: a small run keeps what it freed
      // (handing it back costs the pages touched again, and keeps nothing flat that matters).
      const freedSmall = await allocateAndFree();
      resident = 200 * megabytes;
      await trim(connection);
      expect(anonymousMegabytes()!).toBeGreaterThan(freedSmall - 30);
      // Past 256 MB the regrowth counts from where the last hand-back left it (or the first call did):
      // 100 MB here, so this one hands back.
      resident = 300 * megabytes;
      await trim(connection);
      expect(anonymousMegabytes()!).toBeLessThan(freedSmall - 60);
      // From 300 MB: grown less than allowed, kept.
      const freed = await allocateAndFree();
      resident = 331 * megabytes;
      await trim(connection);
      expect(anonymousMegabytes()!).toBeGreaterThan(freed - 30);
      resident = 333 * megabytes;
      await trim(connection);
      expect(anonymousMegabytes()!).toBeLessThan(freed - 60);
      // A call before a commit that checkpoints hands back whatever was freed, grown or not, large or not.
      const freedAgain = await allocateAndFree();
      resident = 120 * megabytes;
      await trim(connection, { handBack: true });
      expect(anonymousMegabytes()!).toBeLessThan(freedAgain - 60);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
