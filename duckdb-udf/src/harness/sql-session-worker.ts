import { ResultReturnType, type DuckDBConnection, type DuckDBResultReader } from '@duckdb/node-api';
import { parentPort, workerData } from 'node:worker_threads';
import { SragError } from '../../../core/index.ts';
import { readSqlResult } from '../read-sql-result.ts';
import { openSragDatabase } from './open-srag-database.ts';
import type { SqlSessionReply, SqlSessionRequest, SqlSessionWorkerData } from './sql-session-protocol.ts';

/**
 * The database side of a CLI session: the DuckDB database with the srag functions, on a worker
 * so that the main thread stays free for Ctrl-C while a DuckDB callback blocks this one.
 */
const data = workerData as SqlSessionWorkerData;
const opening = openSragDatabase(data.path, { environment: data.environment, progress: data.progress, control: data.control });

const reply = (message: SqlSessionReply) => parentPort!.postMessage(message);
const failure = (id: number, error: unknown): SqlSessionReply => ({
  id,
  ok: false,
  error: SragError.isInstance(error)
    ? { message: error.message, code: error.code, hint: error.hint }
    : { message: error instanceof Error ? error.message : String(error) },
});

parentPort!.on('message', async (request: SqlSessionRequest) => {
  let database;
  try {
    database = await opening;
  } catch (error) {
    return reply(failure(request.id, error));
  }
  try {
    switch (request.type) {
      case 'run': {
        const reader = await runStatement(database.connection, request.sql);
        await database.flush();
        // DDL, INSERT and COPY answer with a "Count" column too; only a query's rows are a result to show.
        return reply({ id: request.id, ok: true, result: readSqlResult(reader), returnsRows: reader.returnType === ResultReturnType.QUERY_RESULT });
      }
      case 'usage':
        return reply({ id: request.id, ok: true, usage: await database.usage() });
      case 'interrupt':
        database.connection.interrupt();
        return reply({ id: request.id, ok: true });
      case 'close':
        await database.close();
        return reply({ id: request.id, ok: true });
    }
  } catch (error) {
    // What the functions learnt before a failure (cached replies, log entries) is kept.
    await database.flush().catch(() => undefined);
    reply(failure(request.id, error));
  }
});

/** A statement that calls srag_extract or srag_ask (a word, not inside a longer name). */
const callsSragFunction = /(?<![\w$])srag_(?:extract|ask)\s*\(/i;

/**
 * Runs a statement. One that calls an srag function runs with DuckDB on one thread, and the
 * setting the session had comes back after it. The statement's own thread waits for tasks by
 * polling (DuckDB's `PendingQueryResult::ExecuteInternal` retries while no task is free). When
 * another DuckDB thread has taken the scan's task, and that task is blocked in srag_extract's
 * callback until the model answers, the polling burns a whole core for the whole scan. With
 * DuckDB's default threads the CPU of a 1,023-call scan at concurrency 64 was 5.8–12.2 s; with one
 * thread, 7.2–7.8 s. A statement that waits on a model gains nothing from DuckDB's parallelism.
 */
async function runStatement(connection: DuckDBConnection, sql: string): Promise<DuckDBResultReader> {
  if (!callsSragFunction.test(sql)) return connection.runAndReadAll(sql);
  const threads = Number((await connection.runAndReadAll("SELECT current_setting('threads')")).getRowsJS()[0]![0]);
  await connection.run('SET threads = 1');
  try {
    return await connection.runAndReadAll(sql);
  } finally {
    await connection.run(`SET threads = ${threads}`);
  }
}
