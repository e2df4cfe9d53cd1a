import type { CachedResponse } from '../../../core/index.ts';
import type { SragStore } from './srag-store.ts';
import { transaction } from './srag-store.ts';
import { writeCacheEntries } from './store-writes.ts';

/** A Batch API batch of one table that has not been collected yet. */
export interface OpenBatch {
  batchId: string;
  /** The first batch id of the submission it belongs to (a submission over the provider's limits is several batches). */
  submission: string;
  requestCount: number;
  submittedAt: Date;
}

/**
 * What makes a run send the requests it sends, besides its documents and the table's schema: a run
 * that collects a batch uses the options of the run that submitted it.
 */
export interface SubmittedRunOptions {
  /** `--retry-failed`: documents that had failed before were tried. */
  retryFailed: boolean;
  /** `--batch-size` (documents per call; undefined for the default). */
  batchSize?: number | 'auto';
  /** `--no-evidence` sends other requests. */
  withEvidence: boolean;
}

/** The documents of the run a submission came from, in that run's order. */
export interface SubmittedRun {
  /** Every document of the run, in its order. */
  sources: readonly string[];
  /** Of them, those whose requests went into the batch: no other run sends them while it is out. */
  waiting: ReadonlySet<string>;
  options: SubmittedRunOptions;
}

/** A submission whose batches are all collected: its run is made again to read the replies. */
export interface FinishedSubmission {
  submission: string;
  sources: string[];
  options: SubmittedRunOptions;
}

/**
 * What the database keeps of the Batch API jobs of `srag ingest --batch-api`: per batch its id,
 * table and state (`submitted`, then `collected` once its replies are in the response cache), and
 * per submission the documents of the run that made it, in order. Only ids — never a key or a URL.
 */
export class BatchJobs {
  constructor(private readonly store: SragStore) {}

  /**
   * Records batches of a submission (named by its first batch id) and, with the first, the run it
   * came from. A run over the same documents in the same order with the same options sends the
   * same requests (documents share a model call by their position in the run), so it finds the
   * batch's replies in the cache. `replaces` names the submission whose replies this run read: its
   * listing goes in the same transaction, so the documents are always listed once.
   */
  recordSubmission(table: string, submission: string, batches: Array<{ batchId: string; requestCount: number }>, run: SubmittedRun | undefined, replaces?: string): Promise<void> {
    return this.store.exclusive((connection) => transaction(connection, async () => {
      for (const { batchId, requestCount } of batches) {
        await connection.run(
          "INSERT INTO srag_batches (batch_id, table_name, submission, status, request_count, run_options) VALUES ($1, $2, $3, 'submitted', $4, $5)",
          [batchId, table, submission, requestCount, JSON.stringify(run?.options ?? {})],
        );
      }
      if (replaces !== undefined) await connection.run('DELETE FROM srag_batch_documents WHERE submission = $1', [replaces]);
      if (!run || run.sources.length === 0) return;
      await connection.run(
        `INSERT INTO srag_batch_documents (submission, table_name, source, position, waiting)
         SELECT $1, $2, source, position, list_contains(from_json($4, '["VARCHAR"]'), source)
         FROM (SELECT unnest(listed) AS source, unnest(range(len(listed))) AS position FROM (SELECT from_json($3, '["VARCHAR"]') AS listed))`,
        [submission, table, JSON.stringify(run.sources), JSON.stringify([...run.waiting])],
      );
    }));
  }

  /** The table's batches not collected yet, oldest first. */
  open(table: string): Promise<OpenBatch[]> {
    return this.store.exclusive(async (connection) => (await connection.runAndReadAll(
      "SELECT batch_id, submission, request_count, epoch_ms(submitted_at) FROM srag_batches WHERE table_name = $1 AND status = 'submitted' ORDER BY submitted_at, batch_id",
      [table],
    )).getRowsJS().map((row) => ({ batchId: String(row[0]), submission: String(row[1]), requestCount: Number(row[2]), submittedAt: new Date(Number(row[3])) })));
  }

  /**
   * Puts a finished batch's replies in the response cache, under the request's cache key, and
   * marks it collected — in one transaction, so a reply is never both lost and marked read.
   */
  collect(batchId: string, replies: Array<{ key: string; response: CachedResponse }>): Promise<void> {
    return this.store.exclusive((connection) => transaction(connection, async () => {
      // A reply the cache held for the same request was unusable (that is why it was asked again): the new one replaces it.
      await connection.run('DELETE FROM srag_cache WHERE key IN (SELECT unnest(from_json($1, \'["VARCHAR"]\')))', [JSON.stringify(replies.map((reply) => reply.key))]);
      await writeCacheEntries(connection, replies.map(({ key, response }) => ({ key, response, purpose: 'extraction' })));
      await connection.run("UPDATE srag_batches SET status = 'collected', collected_at = current_timestamp WHERE batch_id = $1", [batchId]);
    }));
  }

  /** Documents of the table whose requests a batch still works on: a run leaves them alone. */
  waitingSources(table: string): Promise<Set<string>> {
    return this.store.exclusive(async (connection) => new Set((await connection.runAndReadAll(
      `SELECT DISTINCT source FROM srag_batch_documents WHERE table_name = $1 AND waiting
       AND submission IN (SELECT submission FROM srag_batches WHERE table_name = $1 AND status = 'submitted')`,
      [table],
    )).getRowsJS().map((row) => String(row[0]))));
  }

  /** The tables some submission still lists documents of, by name. */
  tablesWithSubmissions(): Promise<string[]> {
    return this.store.exclusive(async (connection) => (await connection.runAndReadAll(
      'SELECT DISTINCT table_name FROM srag_batch_documents ORDER BY table_name',
    )).getRowsJS().map((row) => String(row[0])));
  }

  /** Every document of the table some submission still lists (what `--resume-batch` goes over). */
  listedSources(table: string): Promise<string[]> {
    return this.store.exclusive(async (connection) => (await connection.runAndReadAll(
      'SELECT DISTINCT source FROM srag_batch_documents WHERE table_name = $1 ORDER BY source', [table],
    )).getRowsJS().map((row) => String(row[0])));
  }

  /** The table's submissions whose batches are all collected, oldest first, each with its run's documents in order. */
  finishedSubmissions(table: string): Promise<FinishedSubmission[]> {
    return this.store.exclusive(async (connection) => (await connection.runAndReadAll(
      `SELECT d.submission, list(d.source ORDER BY d.position), b.run_options FROM srag_batch_documents d
       JOIN (SELECT submission, min(submitted_at) AS submitted_at, bool_or(status = 'submitted') AS still_open,
                    max(run_options) FILTER (WHERE submission = batch_id) AS run_options
             FROM srag_batches WHERE table_name = $1 GROUP BY submission) b ON b.submission = d.submission
       WHERE d.table_name = $1 AND NOT b.still_open
       GROUP BY d.submission, b.submitted_at, b.run_options ORDER BY b.submitted_at, d.submission`,
      [table],
    )).getRowsJS().map((row) => ({ submission: String(row[0]), sources: (row[1] as unknown[]).map(String), options: readRunOptions(row[2]) })));
  }

  /** After the run over a finished submission's documents sent nothing to a batch: it lists them no more. */
  release(submission: string): Promise<void> {
    return this.store.exclusive(async (connection) => {
      await connection.run('DELETE FROM srag_batch_documents WHERE submission = $1', [submission]);
    });
  }
}

function readRunOptions(text: unknown): SubmittedRunOptions {
  const stored = JSON.parse(typeof text === 'string' ? text : '{}') as Partial<SubmittedRunOptions>;
  return { retryFailed: stored.retryFailed === true, batchSize: stored.batchSize, withEvidence: stored.withEvidence !== false };
}
