import { ResultReturnType } from '../../duckdb/duckdb-node-api.ts';
import type { DuckDBConnection, DuckDBResultReader } from '@duckdb/node-api';
import { parentPort, workerData } from 'node:worker_threads';
import { firstLine, SragError } from '../../../core/index.ts';
import { readSqlResult } from '../../duckdb/read-sql-result.ts';
import { takeFunctionFailure } from '../table-functions/function-failures.ts';
import { openSragDatabase, type SragDatabase } from './open-srag-database.ts';
import type { SqlSessionReply, SqlSessionRequest, SqlSessionWorkerData } from './sql-session-protocol.ts';

/**
 * The database side of a CLI session: the DuckDB database with the srag functions, on a worker
 * so that the main thread stays free for Ctrl-C while a DuckDB callback blocks this one.
 */
const data = workerData as SqlSessionWorkerData;
const opening = openSragDatabase(data.path, { environment: data.environment, progress: data.progress, control: data.control });

const reply = (message: SqlSessionReply) => parentPort!.postMessage(message);
const failure = (id: number, error: unknown): SqlSessionReply => {
  // A DuckDB error that carries an srag function's failure keeps that failure's code and fix (the message stays DuckDB's).
  const reported = SragError.isInstance(error) ? undefined : takeFunctionFailure(error instanceof Error ? error.message : String(error));
  const srag = SragError.isInstance(error) ? error : reported;
  return {
    id,
    ok: false,
    error: srag
      ? (srag === error ? { message: srag.message, code: srag.code, hint: srag.hint } : { message: firstLine((error as Error).message), code: srag.code, fromFunction: true })
      : { message: error instanceof Error ? error.message : String(error) },
  };
};

/**
 * The apply of what the last statement journaled (see `SragDatabase.flush`). It starts once the
 * statement's answer is posted, so that the rows reach the caller without waiting for srag's own
 * tables (at the end of a 512-document scan the apply took 75–190 ms, ~8% of the scan); every
 * later statement, and closing, waits for it first, so that nothing reads those tables before
 * they hold what the statement before wrote.
 */
let applying: Promise<void> = Promise.resolve();
/** Set while a statement waits for that apply: an interrupt then means "do not run it". */
let settling: { interrupted: boolean } | undefined;

/** Starts the apply of what the statement just run journaled; the next request settles it. */
function startApply(database: SragDatabase): void {
  applying = database.flush();
  // Its failure is the next request's to report (see `settle`), not an unhandled rejection.
  applying.catch(() => undefined);
}

/**
 * Waits for the last statement's apply. One that failed is tried again, and a failure then is
 * this statement's error (and the next one's, until an apply succeeds): the writes stay journaled
 * (the next open applies them), and nothing runs on tables that lack them.
 */
async function settle(database: SragDatabase): Promise<void> {
  const state = { interrupted: false };
  settling = state;
  try {
    if (await applying.then(() => false, () => true)) {
      startApply(database);
      await applying.catch((error: unknown) => {
        throw applyFailure(error);
      });
    }
  } finally {
    settling = undefined;
  }
  if (state.interrupted) throw new SragError({ code: 'CANCELLED', message: 'cancelled before the statement started' });
}

/** An apply that failed, as a statement or closing reports it: what could not be done, why, and what to do. */
function applyFailure(error: unknown): SragError {
  const reason = firstLine(error instanceof Error ? error.message : String(error));
  return new SragError({
    code: 'STORE_FAILED',
    message: `cannot move what the previous statement saved into srag's tables: ${reason}`,
    hint: 'fix the cause (disk space, permissions) and run the statement again: the saved entries are kept, and are applied first',
    cause: error,
  });
}

parentPort!.on('message', async (request: SqlSessionRequest) => {
  let database;
  try {
    database = await opening;
  } catch (error) {
    return reply(failure(request.id, error));
  }
  let ran = false;
  try {
    switch (request.type) {
      case 'run': {
        await settle(database);
        ran = true;
        const reader = await runStatement(database.connection, request.sql);
        // DDL, INSERT and COPY answer with a "Count" column too; only a query's rows are a result to show.
        reply({ id: request.id, ok: true, result: readSqlResult(reader), returnsRows: reader.returnType === ResultReturnType.QUERY_RESULT });
        return startApply(database);
      }
      case 'usage':
        return reply({ id: request.id, ok: true, usage: await database.usage() });
      case 'interrupt':
        if (settling) settling.interrupted = true;
        database.connection.interrupt();
        return reply({ id: request.id, ok: true });
      case 'close':
        // Closing applies what is left, an apply that failed before included; a failure there is the answer.
        await applying.catch(() => undefined);
        try {
          await database.flush();
        } catch (error) {
          await database.close().catch(() => undefined);
          throw applyFailure(error);
        }
        await database.close().catch((error: unknown) => {
          throw new SragError({ code: 'STORE_FAILED', message: `cannot close the database: ${firstLine(error instanceof Error ? error.message : String(error))}`, cause: error });
        });
        return reply({ id: request.id, ok: true });
    }
  } catch (error) {
    // What the functions learnt before a failure (cached replies, log entries) is kept: applied as after any statement.
    if (ran) startApply(database);
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
