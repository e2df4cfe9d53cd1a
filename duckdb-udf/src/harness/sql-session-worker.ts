import { ResultReturnType } from '@duckdb/node-api';
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
        const reader = await database.connection.runAndReadAll(request.sql);
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
