import type { SragStore } from './srag-store.ts';

/** A job as the database keeps it: its request, and its result or error once it ended, each as JSON. */
export interface StoredIngestJob<Request, Result, Failure> {
  id: string;
  status: string;
  request: Request;
  result?: Result;
  error?: Failure;
  /** ISO 8601, to the second, in UTC. */
  createdAt: string;
}

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
 * The ingest jobs of `srag serve`, kept in the store's database (`srag_serve_jobs`): a job is
 * written when it is accepted and again whenever its status changes, so that one the server did
 * not finish is found at the next start. The table is made on first use; a read-only database
 * keeps no job.
 */
export class IngestJobStore<Request, Result, Failure> {
  private constructor(private readonly store: SragStore) {}

  /** Opens the job list, making its table when the database is writable. */
  static async open<Request, Result, Failure>(store: SragStore): Promise<IngestJobStore<Request, Result, Failure>> {
    if (!store.readOnly) await store.exclusive((connection) => connection.run(jobsTableSql));
    return new IngestJobStore(store);
  }

  /** Every job kept, oldest first. */
  async list(): Promise<Array<StoredIngestJob<Request, Result, Failure>>> {
    if (this.store.readOnly) return [];
    const rows = await this.store.exclusive(async (connection) => (await connection.runAndReadAll(
      "SELECT id, status, request_json, result_json, error_json, strftime(created_at, '%Y-%m-%dT%H:%M:%SZ') FROM srag_serve_jobs ORDER BY created_at, id")).getRowsJS());
    return rows.map(([id, status, request, result, error, createdAt]) => ({
      id: String(id), status: String(status), request: JSON.parse(String(request)) as Request, createdAt: String(createdAt),
      ...(result ? { result: JSON.parse(String(result)) as Result } : {}),
      ...(error ? { error: JSON.parse(String(error)) as Failure } : {}),
    }));
  }

  /** Keeps a new job, before it is accepted. */
  async add(id: string, status: string, request: Request): Promise<void> {
    await this.store.exclusive((connection) => connection.run('INSERT INTO srag_serve_jobs (id, status, request_json) VALUES ($1, $2, $3)', [id, status, JSON.stringify(request)]));
  }

  /** Keeps a job's new status, with its result or error when it ended. */
  async update(id: string, { status, result, error }: { status: string; result?: Result; error?: Failure }): Promise<void> {
    await this.store.exclusive((connection) => connection.run(
      'UPDATE srag_serve_jobs SET status = $2, result_json = $3, error_json = $4, updated_at = current_timestamp WHERE id = $1',
      [id, status, result === undefined ? null : JSON.stringify(result), error === undefined ? null : JSON.stringify(error)]));
  }
}
