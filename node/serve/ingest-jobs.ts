import { randomUUID } from 'node:crypto';
import { parseRecordSchema, recordSchemaToJsonSchema, tableNameForSchema, type RecordSchema, type RunSummary } from '../../core/index.ts';
import { IngestJobStore } from '../duckdb/store/ingest-job-store.ts';
import { refuseReservedTableName } from '../duckdb/store/refuse-reserved-table-name.ts';
import type { ResolvedDocuments } from '../runtime/resolve-documents.ts';
import { checkIngestOptions } from '../session/check-ingest-options.ts';
import type { IngestDocumentsResult } from '../session/ingest-documents.ts';
import { ingestOutcomeJson } from '../session/ingest-outcome-json.ts';
import { ingest, type IngestOptions } from '../session/ingest.ts';
import type { Session } from '../session/open-session.ts';
import { describeJobOutcome } from './describe-job-outcome.ts';
import { httpError, type HttpErrorBody } from './http-error.ts';
import type { IngestRequestBody } from './ingest-request.ts';
import { readServedDocuments } from './read-served-documents.ts';
import { readServedSchema } from './read-served-schema.ts';
import type { ServedFolders } from './served-folders.ts';

/** What `POST /ingest` asks for, as kept with the job: absolute paths and the schema itself. */
export interface IngestJobRequest {
  paths: string[];
  schema: Record<string, unknown>;
  table: string;
  retryFailed: boolean;
  evidence: boolean;
  /** Absent from jobs kept by earlier versions: false, or the default. */
  prune?: boolean;
  batchSize?: number;
  maxCost?: number;
  batchApi?: boolean;
  synthesize?: boolean;
}

export type IngestJobStatus = 'queued' | 'running' | 'done' | 'failed';

/**
 * A finished job's result: the summary `srag ingest --json` prints (see `ingestOutcomeJson`), with
 * the run's counts as the use case has them (`summary`, naming the first failures) and its `usage`.
 */
export type IngestJobResult = Record<string, unknown> & { summary: RunSummary; usage: IngestDocumentsResult['usage'] };

export interface IngestJob {
  id: string;
  status: IngestJobStatus;
  table: string;
  request: IngestJobRequest;
  /** Documents finished of the run (in memory: a resumed job counts again, its unchanged documents at once). */
  progress: { completed: number; total: number; failed: number; lastDocument?: string };
  /** When done; a job stopped at its `maxCost` is done too, its result saying `budget_reached`. */
  result?: IngestJobResult;
  error?: HttpErrorBody['error'];
  /** What the run said besides its summary: warnings, Batch API lines, moved and gone documents, where it stopped. */
  warnings: string[];
  createdAt: string;
}

type Listener = (job: IngestJob) => void;

/**
 * The ingest jobs of `srag serve`: one runs at a time, next to any number of queries, each the
 * ingest use case (`ingest`) with the request's options. A job's request is stored in the database
 * before it is accepted, and its outcome when it ends; a job the server did not finish (stopped,
 * killed) runs again when the server starts, and the ingestion log makes that rerun resume:
 * documents already extracted cost nothing and are not duplicated.
 */
export class IngestJobs {
  private readonly jobs = new Map<string, IngestJob>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private chain: Promise<void> = Promise.resolve();

  private constructor(private readonly session: Session, private readonly cancellation: AbortSignal, private readonly folders: ServedFolders, private readonly store: IngestJobStore<IngestJobRequest, IngestJobResult, IngestJob['error']>) {}

  /**
   * Opens the job list in the session's database and queues every unfinished job again. Jobs read
   * only inside `folders`: an unfinished job kept from a start with other folders is checked again.
   */
  static async open(session: Session, cancellation: AbortSignal, folders: ServedFolders): Promise<IngestJobs> {
    const jobs = new IngestJobs(session, cancellation, folders, await IngestJobStore.open(session.store));
    for (const kept of await jobs.store.list()) {
      const job: IngestJob = { ...kept, status: kept.status as IngestJobStatus, table: kept.request.table, progress: { completed: 0, total: 0, failed: 0 }, warnings: [] };
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
  async submit(input: IngestRequestBody): Promise<IngestJob> {
    const { request } = await this.checked(input);
    const job: IngestJob = {
      id: randomUUID(), status: 'queued', table: request.table, request,
      progress: { completed: 0, total: 0, failed: 0 }, warnings: [], createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    await this.store.add(job.id, job.status, request);
    this.jobs.set(job.id, job);
    this.enqueue(job);
    return job;
  }

  /** A dry run of the request, checked as `submit` checks it: what the job would send and cost, as `srag ingest --dry-run --json` says it. */
  async estimate(input: IngestRequestBody): Promise<Record<string, unknown>> {
    const { request, schema, documents } = await this.checked(input);
    const outcome = await ingest(this.session, { ...ingestOptions(request), dryRun: true, documents, schema, table: request.table });
    return ingestOutcomeJson(outcome, { database: this.session.store.path });
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

  /** The request as a job keeps it, with its schema and documents; refused here when it cannot run. */
  private async checked(input: IngestRequestBody): Promise<{ request: IngestJobRequest; schema: RecordSchema; documents: ResolvedDocuments['documents'] }> {
    const schema: RecordSchema = typeof input.schema === 'string'
      ? await readServedSchema(input.schema, this.folders)
      : parseRecordSchema(input.schema, 'the request\'s schema');
    const table = tableNameForSchema(schema, input.table);
    refuseReservedTableName(table, 'send another "table"');
    checkIngestOptions(this.session.settings, { batchApi: input.batchApi === true, synthesize: input.synthesize, maxCostUsd: input.maxCost, dryRun: input.dryRun });
    const paths = input.paths.map((path) => this.folders.confine(path, 'the path'));
    const { documents } = await readServedDocuments(paths, this.folders);
    const request: IngestJobRequest = {
      paths,
      schema: recordSchemaToJsonSchema(schema),
      table,
      retryFailed: input.retryFailed ?? false,
      evidence: input.evidence ?? true,
      prune: input.prune ?? false,
      ...(input.batchSize !== undefined ? { batchSize: input.batchSize } : {}),
      ...(input.maxCost !== undefined ? { maxCost: input.maxCost } : {}),
      ...(input.batchApi ? { batchApi: true } : {}),
      ...(input.synthesize ? { synthesize: true } : {}),
    };
    return { request, schema, documents };
  }

  private enqueue(job: IngestJob): void {
    this.chain = this.chain.then(() => this.run(job));
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
      const { documents } = await readServedDocuments(job.request.paths.map((path) => this.folders.confine(path, 'the path')), this.folders);
      const outcome = await ingest(this.session, { ...ingestOptions(job.request), documents, schema, table: job.request.table }, {
        onStart: (run) => {
          job.progress = { completed: 0, total: run.documents, failed: 0 };
          this.changed(job);
        },
        onProgress: (progress) => {
          job.progress = {
            completed: progress.completed, total: progress.total,
            failed: job.progress.failed + (progress.outcome === 'failed' ? 1 : 0), lastDocument: progress.source,
          };
          this.changed(job);
        },
        onWarning: (line) => job.warnings.push(line),
        onBatchLine: (line) => job.warnings.push(line),
        cancellation: this.cancellation,
      });
      if (this.cancellation.aborted) return;
      if (outcome.kind !== 'run') throw new Error('a job is never a dry run');
      job.warnings.push(...describeJobOutcome(outcome));
      job.result = { ...ingestOutcomeJson(outcome, { database: this.session.store.path }), summary: outcome.summary, usage: outcome.usage };
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
    return this.store.update(job.id, { status: job.status, result: job.result, error: job.error });
  }
}

/** The use case's options a job request carries. */
function ingestOptions(request: IngestJobRequest): IngestOptions {
  return {
    retryFailed: request.retryFailed, evidence: request.evidence, prune: request.prune === true, batchSize: request.batchSize,
    maxCostUsd: request.maxCost, batchApi: request.batchApi, synthesize: request.synthesize, retryHint: 'submit the job again with retryFailed: true',
  };
}
