import { randomUUID } from 'node:crypto';
import { parseRecordSchema, recordSchemaToJsonSchema, SragError, tableNameForSchema, type RecordSchema, type RunSummary } from '../../core/index.ts';
import { canonicalPath } from '../runtime/canonical-path.ts';
import { resolveDocuments, type ResolvedDocuments } from '../runtime/resolve-documents.ts';
import { describeMovedDocuments } from '../session/describe-moved-documents.ts';
import { ingestDocuments, type IngestDocumentsResult } from '../session/ingest-documents.ts';
import type { Session } from '../session/open-session.ts';
import { refuseReservedTableName } from '../duckdb/store/refuse-reserved-table-name.ts';
import { httpError, type HttpErrorBody } from './http-error.ts';
import { readServedSchema } from './read-served-schema.ts';
import type { ServedFolders } from './served-folders.ts';

/** What `POST /ingest` asks for, as kept with the job: absolute paths and the schema itself. */
export interface IngestJobRequest {
  paths: string[];
  schema: Record<string, unknown>;
  table: string;
  retryFailed: boolean;
  evidence: boolean;
  /** Remove the records of the table's documents whose files are gone (absent from jobs kept by earlier versions: false). */
  prune?: boolean;
}

export type IngestJobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface IngestJob {
  id: string;
  status: IngestJobStatus;
  table: string;
  request: IngestJobRequest;
  /** Documents finished of the run (in memory: a resumed job counts again, its unchanged documents at once). */
  progress: { completed: number; total: number; failed: number; lastDocument?: string };
  result?: { summary: RunSummary; usage: IngestDocumentsResult['usage'] };
  error?: HttpErrorBody['error'];
  /** Warnings the run printed (a document needing many calls). */
  warnings: string[];
  createdAt: string;
}

type Listener = (job: IngestJob) => void;

const jobsTableSql = `CREATE TABLE IF NOT EXISTS srag_serve_jobs (
  id VARCHAR PRIMARY KEY,
  status VARCHAR NOT NULL,
  request_json VARCHAR NOT NULL,
  result_json VARCHAR,
  error_json VARCHAR,
  created_at TIMESTAMP DEFAULT current_timestamp,
  updated_at TIMESTAMP DEFAULT current_timestamp
)`;

/**
 * The ingest jobs of `srag serve`: one runs at a time, next to any number of queries. A job's
 * request is stored in the database before it is accepted, and its outcome when it ends; a job the
 * server did not finish (stopped, killed) runs again when the server starts, and the ingestion log
 * makes that rerun resume: documents already extracted cost nothing and are not duplicated.
 */
export class IngestJobs {
  private readonly jobs = new Map<string, IngestJob>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private chain: Promise<void> = Promise.resolve();

  private constructor(private readonly session: Session, private readonly cancellation: AbortSignal, private readonly folders: ServedFolders) {}

  /**
   * Opens the job list in the session's database and queues every unfinished job again. Jobs read
   * only inside `folders`: an unfinished job kept from a start with other folders is checked again.
   */
  static async open(session: Session, cancellation: AbortSignal, folders: ServedFolders): Promise<IngestJobs> {
    const jobs = new IngestJobs(session, cancellation, folders);
    if (session.store.readOnly) return jobs;
    const rows = await session.store.exclusive(async (connection) => {
      await connection.run(jobsTableSql);
      return (await connection.runAndReadAll(
        'SELECT id, status, request_json, result_json, error_json, strftime(created_at, \'%Y-%m-%dT%H:%M:%SZ\') FROM srag_serve_jobs ORDER BY created_at, id')).getRowsJS();
    });
    for (const [id, status, requestJson, resultJson, errorJson, createdAt] of rows) {
      const request = JSON.parse(String(requestJson)) as IngestJobRequest;
      const job: IngestJob = {
        id: String(id), status: status as IngestJobStatus, table: request.table, request,
        progress: { completed: 0, total: 0, failed: 0 }, warnings: [], createdAt: String(createdAt),
        ...(resultJson ? { result: JSON.parse(String(resultJson)) as IngestJob['result'] } : {}),
        ...(errorJson ? { error: JSON.parse(String(errorJson)) as IngestJob['error'] } : {}),
      };
      jobs.jobs.set(job.id, job);
      if (job.status === 'queued' || job.status === 'running') {
        job.status = 'queued';
        jobs.enqueue(job);
      }
    }
    return jobs;
  }

  /**
   * Checks the request (schema, paths relative to the server's working directory, both inside the
   * served folders) and queues it: a bad schema, a reserved table name, a path outside the folders
   * or one that matches nothing is refused here, before any job exists.
   */
  async submit(input: { paths: string[]; schema: Record<string, unknown> | string; table?: string; retryFailed?: boolean; evidence?: boolean; prune?: boolean }): Promise<IngestJob> {
    const schema: RecordSchema = typeof input.schema === 'string'
      ? await readServedSchema(input.schema, this.folders)
      : parseRecordSchema(input.schema, 'the request\'s schema');
    const table = tableNameForSchema(schema, input.table);
    refuseReservedTableName(table, 'send another "table"');
    const paths = input.paths.map((path) => this.folders.confine(path, 'the path'));
    await this.resolve(paths);
    const request: IngestJobRequest = {
      paths,
      schema: recordSchemaToJsonSchema(schema),
      table,
      retryFailed: input.retryFailed ?? false,
      evidence: input.evidence ?? true,
      prune: input.prune ?? false,
    };
    const job: IngestJob = {
      id: randomUUID(), status: 'queued', table: request.table, request,
      progress: { completed: 0, total: 0, failed: 0 }, warnings: [], createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    await this.session.store.exclusive((connection) => connection.run(
      'INSERT INTO srag_serve_jobs (id, status, request_json) VALUES ($1, $2, $3)', [job.id, job.status, JSON.stringify(request)]));
    this.jobs.set(job.id, job);
    this.enqueue(job);
    return job;
  }

  get(id: string): IngestJob | undefined {
    return this.jobs.get(id);
  }

  list(): IngestJob[] {
    return [...this.jobs.values()].reverse();
  }

  /** Calls `listener` on every change of the job until the returned function is called. */
  subscribe(id: string, listener: Listener): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Resolves when every queued job has ended (or stopped at cancellation). */
  idle(): Promise<void> {
    return this.chain;
  }

  private enqueue(job: IngestJob): void {
    this.chain = this.chain.then(() => this.run(job));
  }

  /**
   * The documents `paths` name inside the served folders; a match outside them is left out as if
   * it were not there. Each is checked again just before it is read: a file swapped for a link
   * since (the run may come long after the request) is that document's failure, and nothing is read.
   */
  private async resolve(paths: string[]): Promise<ResolvedDocuments> {
    const resolved = await resolveDocuments(paths, { confineTo: (identity) => this.folders.holds(identity) });
    const documents = resolved.documents.map((document) => ({
      ...document,
      read: () => {
        let canonical: string | undefined;
        try {
          canonical = canonicalPath(document.source);
        } catch {
          canonical = undefined;
        }
        if (canonical !== document.source) {
          return Promise.reject(new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${document.label} is gone or now leads elsewhere`, hint: 'submit the job again' }));
        }
        return document.read();
      },
    }));
    return { ...resolved, documents };
  }

  private changed(job: IngestJob): void {
    for (const listener of this.listeners.get(job.id) ?? []) listener(job);
  }

  private async run(job: IngestJob): Promise<void> {
    if (this.cancellation.aborted) return;
    job.status = 'running';
    this.changed(job);
    try {
      await this.save(job);
      const schema = parseRecordSchema(job.request.schema, `job ${job.id}'s schema`);
      refuseReservedTableName(job.request.table, 'submit the job again with another "table"');
      const { documents } = await this.resolve(job.request.paths.map((path) => this.folders.confine(path, 'the path')));
      job.progress = { completed: 0, total: documents.length, failed: 0 };
      this.changed(job);
      const result = await ingestDocuments(this.session, {
        documents,
        schema,
        table: job.request.table,
        retryFailed: job.request.retryFailed,
        retryHint: 'submit the job again with retryFailed: true',
        withEvidence: job.request.evidence,
        prune: job.request.prune === true,
        onProgress: (progress) => {
          job.progress = {
            completed: progress.completed, total: progress.total,
            failed: job.progress.failed + (progress.outcome === 'failed' ? 1 : 0), lastDocument: progress.source,
          };
          this.changed(job);
        },
        onWarning: (line) => job.warnings.push(line),
        cancellation: this.cancellation,
      });
      if (this.cancellation.aborted) return;
      if (result.movedDocuments) {
        job.warnings.push(...describeMovedDocuments(job.request.table, result.movedDocuments, { removeHint: `submit the job again with prune: true to remove ${result.movedDocuments.gone.length === 1 ? 'it' : 'them'}` }));
      }
      job.result = { summary: result.summary, usage: result.usage };
      job.status = 'done';
    } catch (error) {
      // Stopped by the server's shutdown: the job stays unfinished and resumes at the next start.
      if (this.cancellation.aborted) return;
      job.error = httpError(error).body.error;
      job.status = 'failed';
    }
    await this.save(job).catch(() => undefined);
    this.changed(job);
  }

  private save(job: IngestJob): Promise<void> {
    return this.session.store.exclusive(async (connection) => {
      await connection.run(
        'UPDATE srag_serve_jobs SET status = $2, result_json = $3, error_json = $4, updated_at = current_timestamp WHERE id = $1',
        [job.id, job.status, job.result ? JSON.stringify(job.result) : null, job.error ? JSON.stringify(job.error) : null]);
    });
  }
}
