import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { SragError, type ModelUsage, type SqlResult } from '../../../core/index.ts';
import { cancelThroughControlBuffer, createControlBuffer } from '../llm-bridge/control-buffer.ts';
import { bridgeWorkerUrl } from '../llm-bridge/llm-bridge.ts';
import { startWorker } from '../../runtime/workers/start-worker.ts';
import { prepareWorkerBundle } from '../../runtime/workers/worker-bundle.ts';
import type { SqlSessionReply, SqlSessionRequest } from './sql-session-protocol.ts';

const sessionWorkerUrl = new URL('./sql-session-worker.ts', import.meta.url);

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An srag database run on a worker thread, driven with plain promises. */
export interface SqlSession {
  /**
   * Runs SQL (the last statement's result is returned); rejects with the database's error. What
   * srag functions journaled is applied to srag's tables after the answer; the next statement
   * (or `close`) waits for that, and tries it again if it failed: while it fails, the statement
   * fails with its error and runs nothing.
   * `returnsRows` is false for statements that only report a count or nothing (DDL, INSERT, COPY).
   */
  run(sql: string): Promise<SqlResult & { returnsRows: boolean }>;
  usage(): Promise<ModelUsage[]>;
  /** Cancels the statement that runs: srag calls stop at once, plain SQL is interrupted. */
  cancel(): void;
  close(): Promise<void>;
}

/** The error of a statement, as DuckDB or srag reported it. */
export class SqlSessionError extends Error {
  /** `code`: srag's, when srag failed (directly, or inside an srag function DuckDB called); absent for DuckDB's own errors. */
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = 'SqlSessionError';
  }
}

/**
 * V8 lets a heap grow to up to four times what the last full collection kept before it collects
 * again. A long scan's threads keep little (a few hundred bytes a document) but make garbage fast
 * (each reply's evidence check, each chunk of rows, each slice of the journal's apply), so their
 * heaps ran far ahead of it: a factor of 1.3 took the peak of a 20,000-page `srag_extract` from
 * 667–724 MB to 546–565 MB for ~2% more CPU (bench/srag-extract-scale.ts). Set before the workers
 * start, for every thread of the process (V8 reads it at each collection).
 */
function limitHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=30');
}

/**
 * Opens `path` with the srag functions on a worker thread. The calling thread keeps its event
 * loop, so a SIGINT handler (or a readline 'SIGINT') can call `cancel()` while a scan runs; the
 * cancel goes through a shared buffer that the blocked DuckDB callback and the LLM bridge watch.
 */
export async function openSqlSession(path: string, { environment = process.env, progress = true }: { environment?: Record<string, string | undefined>; progress?: boolean } = {}): Promise<SqlSession> {
  const control = createControlBuffer();
  limitHeapGrowth();
  await Promise.all([prepareWorkerBundle(sessionWorkerUrl), prepareWorkerBundle(bridgeWorkerUrl)]);
  const worker: Worker = startWorker(sessionWorkerUrl, { path, control, environment: { ...environment }, progress });
  const pending = new Map<number, { resolve: (reply: SqlSessionReply) => void; reject: (error: unknown) => void }>();
  let nextId = 1;
  let exited: unknown;
  worker.on('message', (reply: SqlSessionReply) => {
    pending.get(reply.id)?.resolve(reply);
    pending.delete(reply.id);
  });
  const fail = (error: unknown) => {
    exited ??= error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new SragError({ code: 'INPUT_INVALID', message: 'the database worker stopped' })));
  const call = (request: DistributiveOmit<SqlSessionRequest, 'id'>): Promise<SqlSessionReply> => {
    if (exited !== undefined) return Promise.reject(exited);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  };
  const expectOk = (reply: SqlSessionReply) => {
    if (!reply.ok) throw new SqlSessionError(`${reply.error.message}${reply.error.hint ? ` — ${reply.error.hint}` : ''}`, reply.error.code);
    return reply;
  };
  // Opening fails here (a locked file, say) rather than on the first statement.
  const opened = await call({ type: 'usage' });
  if (!opened.ok) {
    await worker.terminate();
    throw new SragError({ code: opened.error.code ?? 'INPUT_INVALID', message: opened.error.message, hint: opened.error.hint });
  }
  let cancelled = false;
  return {
    async run(sql) {
      cancelled = false;
      const reply = await call({ type: 'run', sql });
      // Whichever stopped the statement first — the srag call or DuckDB's interrupt — it was the cancel.
      if (!reply.ok && cancelled) throw new SqlSessionError('cancelled; what was extracted before is saved, so running the statement again resumes', 'CANCELLED');
      const done = expectOk(reply);
      return { ...done.result!, returnsRows: done.returnsRows ?? true };
    },
    usage: async () => expectOk(await call({ type: 'usage' })).usage ?? [],
    cancel() {
      cancelled = true;
      cancelThroughControlBuffer(control);
      void call({ type: 'interrupt' }).catch(() => undefined);
    },
    /**
     * Applies what the last statement journaled and closes; rejects when that apply fails (what it
     * could not write stays journaled, and the next open of the database applies it).
     */
    async close() {
      if (exited !== undefined) return;
      const reply = await call({ type: 'close' }).catch(() => undefined);
      await worker.terminate();
      if (reply && !reply.ok) throw new SragError({ code: reply.error.code ?? 'STORE_FAILED', message: reply.error.message, hint: reply.error.hint });
    },
  };
}
