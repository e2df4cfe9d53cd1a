import { startServe } from '../serve/start-serve.ts';

export interface ServeCommandOptions {
  db: string;
  port: number;
  host: string;
  /** `--allow-path DIR`, repeatable: the folders ingest requests may read; default the working directory. */
  allowPath?: string[];
}

/** `srag serve`: the HTTP API and web page over one database, until Ctrl-C. */
export async function serveCommand(options: ServeCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const running = await startServe({ ...options, allowPaths: options.allowPath });
  const unfinished = running.jobs.list().filter((job) => job.status === 'queued').length;
  process.stderr.write(`srag serve: ${running.url}/ over ${options.db} (API description at ${running.url}/openapi.json); Ctrl-C stops\n`);
  process.stderr.write(`ingest requests read documents and schema files only under ${running.folders.join(', ')}\n`);
  if (unfinished) process.stderr.write(`resuming ${unfinished} unfinished ingest ${unfinished === 1 ? 'job' : 'jobs'}\n`);
  await new Promise<void>((resolve) => {
    if (abortSignal.aborted) resolve();
    abortSignal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  return 0;
}
