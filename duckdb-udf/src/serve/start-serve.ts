import { serve, type ServerType } from '@hono/node-server';
import { existsSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SragError } from '../../../core/index.ts';
import { DuckDbSqlEngine } from '../duckdb-sql-engine.ts';
import { openSession } from '../open-session.ts';
import { createServeApp } from './create-serve-app.ts';
import { IngestJobs } from './ingest-jobs.ts';

export interface StartServeOptions {
  db: string;
  port: number;
  host: string;
  /** Settings (model endpoint, `SRAG_SERVE_TOKEN`); default the process environment. */
  environment?: Record<string, string | undefined>;
  /** Where relative ingest paths are read from; default the working directory. */
  directory?: string;
  maximumBodyBytes?: number;
}

export interface RunningServe {
  url: string;
  jobs: IngestJobs;
  /** Stops accepting requests, stops the running job where it stands (it resumes at the next start) and closes the database. */
  close(): Promise<void>;
}

/** Addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Opens the database and listens. One DuckDB instance, on this thread: the store's connection
 * writes (ingest jobs, the response cache), each read gets a connection of its own, and the
 * questions' SQL runs in sandboxes fed from a reader connection — so queries run next to an ingest
 * without ever reading inside its transactions.
 */
export async function startServe(options: StartServeOptions): Promise<RunningServe> {
  const environment = options.environment ?? process.env;
  const token = environment.SRAG_SERVE_TOKEN || undefined;
  if (!isLoopback(options.host) && !token) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `srag serve listens on ${options.host}, beyond this machine, only with a token`,
      hint: 'set SRAG_SERVE_TOKEN to a long random secret (clients send "Authorization: Bearer <token>"), or keep the default --host 127.0.0.1',
    });
  }
  const abort = new AbortController();
  // A database this start creates is removed again when the start fails (the port in use, say): nothing was in it.
  const creates = options.db !== ':memory:' && !existsSync(options.db);
  const session = await openSession(options.db, { abortSignal: abort.signal, environment });
  let server: ServerType | undefined;
  try {
    const queryReader = await session.store.instance.connect();
    const served = { ...session, sqlEngine: new DuckDbSqlEngine(queryReader) };
    const jobs = await IngestJobs.open(served, abort.signal);
    const app = createServeApp({
      session: served,
      jobs,
      token,
      directory: options.directory ?? process.cwd(),
      maximumBodyBytes: options.maximumBodyBytes,
      openReader: () => session.store.instance.connect(),
    });
    const address = await new Promise<AddressInfo>((resolve, reject) => {
      server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, resolve);
      server.once('error', reject);
    });
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return {
      url: `http://${shownHost}:${address.port}`,
      jobs,
      close: async () => {
        abort.abort();
        await new Promise<void>((resolve) => {
          server!.close(() => resolve());
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await jobs.idle().catch(() => undefined);
        queryReader.closeSync();
        session.close();
      },
    };
  } catch (error) {
    server?.close();
    session.close();
    if (creates) for (const file of [options.db, `${options.db}.wal`]) rmSync(file, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new SragError({ code: 'INPUT_INVALID', message: `port ${options.port} on ${options.host} is in use`, hint: 'pass another --port', cause: error });
    }
    throw error;
  }
}
