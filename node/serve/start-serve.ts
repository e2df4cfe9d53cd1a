import { serve, type ServerType } from '@hono/node-server';
import { existsSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SragError } from '../../core/index.ts';
import { DuckDbSqlEngine } from '../duckdb/duckdb-sql-engine.ts';
import { sharedAbortController } from '../runtime/shared-abort-controller.ts';
import { openSession } from '../session/open-session.ts';
import { sragOver } from '../session/open-srag.ts';
import { openedConnectionTableSource } from '../duckdb/sandbox/opened-connection-table-source.ts';
import { sandboxLimits } from '../duckdb/sandbox/sandbox-limits.ts';
import { createServeApp } from './create-serve-app.ts';
import { IngestJobs } from './ingest-jobs.ts';
import { ServedFolders } from './served-folders.ts';

export interface StartServeOptions {
  db: string;
  port: number;
  host: string;
  /** Settings (model endpoint, `SRAG_SERVE_TOKEN`); default the process environment. */
  environment?: Record<string, string | undefined>;
  /** Where relative ingest paths are read from; default the working directory. */
  directory?: string;
  /**
   * The folders ingest requests may read documents and schema files from (`--allow-path`,
   * relative to `directory`); default `directory` alone. Nothing outside them is read.
   */
  allowPaths?: string[];
  maximumBodyBytes?: number;
  /** Sandboxes run at once for questions answered together (default 4, see `serveConcurrentQueries`). */
  concurrentQueries?: number;
}

/**
 * Sandboxes the server runs at once for the questions it answers together: each is bounded on its
 * own (500 MB in DuckDB, 1 GB for its process), so four may take 4 GB at worst.
 */
const serveConcurrentQueries = 4;

/** A shorter token can be guessed: 16 characters of hex are 64 bits. */
const minimumTokenLength = 16;

export interface RunningServe {
  url: string;
  /** The folders ingest requests may read (canonical paths). */
  folders: readonly string[];
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
  if (token !== undefined && token.length < minimumTokenLength) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `SRAG_SERVE_TOKEN has ${token.length} ${token.length === 1 ? 'character' : 'characters'}; srag serve needs at least ${minimumTokenLength}`,
      hint: 'make a random one with: export SRAG_SERVE_TOKEN=$(openssl rand -hex 32)',
    });
  }
  const folders = ServedFolders.open(options.allowPaths ?? [], options.directory ?? process.cwd());
  if (!isLoopback(options.host) && !token) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `srag serve listens on ${options.host}, beyond this machine, only with a token`,
      hint: 'set SRAG_SERVE_TOKEN to a long random secret (clients send "Authorization: Bearer <token>"), or keep the default --host 127.0.0.1',
    });
  }
  const abort = sharedAbortController();
  // A database this start creates is removed again when the start fails (the port in use, say): nothing was in it.
  const creates = options.db !== ':memory:' && !existsSync(options.db);
  const session = await openSession(options.db, { abortSignal: abort.signal, environment });
  let server: ServerType | undefined;
  try {
    // Questions answered together run their SQL together, each on connections of its own.
    const openReader = () => session.store.instance.connect();
    const served = { ...session, sqlEngine: new DuckDbSqlEngine(openedConnectionTableSource(openReader), { ...sandboxLimits, concurrentQueries: options.concurrentQueries ?? serveConcurrentQueries }) };
    const jobs = await IngestJobs.open(served, abort.signal, folders);
    const app = createServeApp({ srag: sragOver(served), jobs, token, maximumBodyBytes: options.maximumBodyBytes });
    const address = await new Promise<AddressInfo>((resolve, reject) => {
      server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, resolve);
      server.once('error', reject);
    });
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return {
      url: `http://${shownHost}:${address.port}`,
      folders: folders.folders,
      jobs,
      close: async () => {
        abort.abort();
        await new Promise<void>((resolve) => {
          server!.close(() => resolve());
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await jobs.idle().catch(() => undefined);
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
