import { rmSync } from 'node:fs';
import path from 'node:path';
import { countTokens } from '../node/runtime/count-tokens.ts';
import type { LlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { runCliMeasured } from './run-cli-measured.ts';

/** What one `srag ingest` in a child process cost srag's process, and what it sent. */
export interface CliIngestFigures {
  documents: number;
  /** User + system CPU of srag's process, all threads. */
  cpuSeconds: number;
  /** Of it, the JavaScript thread's; the rest is DuckDB's, the thread pool's and V8's helpers (threads still alive at exit). */
  mainThreadCpuSeconds: number;
  cpuMillisecondsPerDocument: number;
  peakRssMegabytes: number;
  wallSeconds: number;
  /** Extraction calls the stand-in answered. */
  calls: number;
  /** o200k tokens of every extraction request's messages, per document (undefined when bodies were not kept). */
  promptTokensPerDocument: number | undefined;
}

/**
 * `srag ingest DIR/docs/* --schema DIR/schema.json --json` in `directory`, a child process with its
 * own CPU and memory figures (see `runCliMeasured`), against `standIn` (in the caller's process:
 * its work is not srag's). `concurrency` is SRAG_CONCURRENCY; `arguments` are added to the command.
 * The database is removed afterwards, so each run extracts every document.
 */
export async function measureCliIngest(options: {
  standIn: LlmStandIn;
  directory: string;
  corpus: string;
  documents: number;
  concurrency: number;
  arguments?: string[];
}): Promise<CliIngestFigures> {
  const { standIn, directory, corpus, documents } = options;
  const database = path.join(directory, `cli-ingest-${process.hrtime.bigint()}.duckdb`);
  standIn.reset();
  const run = await runCliMeasured(
    ['ingest', path.join(corpus, 'docs', '*'), '--schema', path.join(corpus, 'schema.json'), '--db', database, '--json', ...options.arguments ?? []],
    directory,
    { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'bench-not-a-key', SRAG_CONCURRENCY: String(options.concurrency) },
  );
  rmSync(database, { force: true });
  rmSync(`${database}.wal`, { force: true });
  if (run.status !== 0) throw new Error(`srag ingest failed (exit ${run.status}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const summary = JSON.parse(run.stdout) as { done: number };
  if (summary.done !== documents) throw new Error(`srag ingest extracted ${summary.done} of ${documents} documents: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const extractions = standIn.requests.filter((request) => request.kind.startsWith('extract-record') && request.status === 200);
  const bodies = extractions.every((request) => request.body !== undefined);
  const sent = bodies
    ? extractions.reduce((sum, request) => sum + (request.body.messages as Array<{ content: string }>).reduce((tokens, message) => tokens + countTokens(message.content), 0), 0)
    : 0;
  return {
    documents,
    cpuSeconds: run.cpuMicroseconds / 1e6,
    mainThreadCpuSeconds: (run.threadCpuMicroseconds.main ?? 0) / 1e6,
    cpuMillisecondsPerDocument: run.cpuMicroseconds / 1000 / documents,
    peakRssMegabytes: run.peakRssKilobytes / 1024,
    wallSeconds: run.milliseconds / 1000,
    calls: extractions.length,
    promptTokensPerDocument: bodies ? sent / documents : undefined,
  };
}
