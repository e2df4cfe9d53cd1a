// npm run bench:serve-load -- [--latency-ms 200] [--clients 50] [--requests 200] [--tables 12] [--concurrent-queries N]
//
// srag serve under load (issue 42: 50 concurrent POST /query reached 6.3 answers a second against
// 4.7 for one client, p50 7.8 s against 208 ms). The hotels sample is ingested into `--tables`
// tables of the same documents, so that every request is a question no earlier request asked (the
// response cache answers none of them: a cached reply would hide the model's latency); the
// stand-in model then answers every call after `--latency-ms`. One client asks its questions one
// after another, then `--clients` clients ask `--requests` questions together. Printed: answers a
// second, p50 and p99 of the latency, and how many model calls were in flight at most.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseRecordSchema } from '../core/index.ts';
import { resolveDocuments } from '../duckdb-udf/src/cli/resolve-documents.ts';
import { ingestDocuments } from '../duckdb-udf/src/ingest-documents.ts';
import { openSession } from '../duckdb-udf/src/open-session.ts';
import { readTextFile } from '../duckdb-udf/src/read-text-file.ts';
import { startServe } from '../duckdb-udf/src/serve/start-serve.ts';
import { readGoldQuestions } from '../tests/helpers/gold-questions.ts';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { repositoryRoot } from '../tests/helpers/run-srag.ts';

const { values: options } = parseArgs({
  options: {
    'latency-ms': { type: 'string', default: '200' },
    clients: { type: 'string', default: '50' },
    requests: { type: 'string', default: '200' },
    tables: { type: 'string', default: '12' },
    'single-requests': { type: 'string', default: '20' },
    'concurrent-queries': { type: 'string' },
  },
});
const latencyMs = Number(options['latency-ms']);
const clients = Number(options.clients);
const requests = Number(options.requests);
const tableCount = Number(options.tables);
const singleRequests = Number(options['single-requests']);

const questions = readGoldQuestions('examples/hotels');
const asked = Array.from({ length: tableCount }, (_, index) => questions.map((question) => ({ question: question.question, table: `hotels_${index + 1}` }))).flat();
if (asked.length < singleRequests + requests) throw new Error(`only ${asked.length} distinct questions: pass --tables ${Math.ceil((singleRequests + requests) / questions.length)} or more`);

const standIn = await startLlmStandIn({ corpora: ['examples/hotels'], recordBodies: false });
const directory = mkdtempSync(join(tmpdir(), 'srag-serve-load-'));
const database = join(directory, 'load.duckdb');
const environment = { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-bench-not-a-real-key-0000' };
try {
  // The same documents into each table: after the first, extraction comes from the response cache.
  const session = await openSession(database, { environment });
  const schema = parseRecordSchema(JSON.parse(await readTextFile(join(repositoryRoot, 'examples/hotels/schema.json'))), 'schema.json');
  const { documents } = await resolveDocuments([join(repositoryRoot, 'examples/hotels/docs')]);
  for (let index = 1; index <= tableCount; index += 1) {
    await ingestDocuments(session, { documents, schema, table: `hotels_${index}`, withEvidence: true, retryHint: '' });
  }
  session.close();
  standIn.setOptions({ latencyMs });
  const concurrentQueries = options['concurrent-queries'] === undefined ? undefined : Number(options['concurrent-queries']);
  const server = await startServe({ db: database, port: 0, host: '127.0.0.1', environment, directory: repositoryRoot, concurrentQueries });
  try {
    const ask = async (request: { question: string; table: string }) => {
      const started = performance.now();
      const response = await fetch(`${server.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${response.status} for "${request.question}" on ${request.table}: ${body}`);
      return performance.now() - started;
    };
    const run = async (name: string, work: Array<{ question: string; table: string }>, concurrency: number) => {
      standIn.reset();
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < work.length) latencies.push(await ask(work[next++]!));
      }));
      const seconds = (performance.now() - started) / 1000;
      const sorted = latencies.sort((left, right) => left - right);
      const percentile = (share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!);
      const row = {
        run: name, requests: work.length, clients: concurrency, seconds: Number(seconds.toFixed(2)),
        answers_per_second: Number((work.length / seconds).toFixed(2)), p50_ms: percentile(0.5), p99_ms: percentile(0.99),
        model_calls: standIn.requests.length, most_model_calls_in_flight: mostInFlight(standIn.requests),
      };
      process.stdout.write(`${JSON.stringify(row)}\n`);
      return row;
    };
    const rows = [
      await run('one client', asked.slice(0, singleRequests), 1),
      await run(`${clients} clients`, asked.slice(singleRequests, singleRequests + requests), clients),
    ];
    process.stderr.write(`\nmodel latency ${latencyMs} ms, SRAG_CONCURRENCY default, sandboxes at once: ${concurrentQueries ?? 'serve\'s default'}\n`);
    for (const row of rows) {
      process.stderr.write(`${row.run.padEnd(12)} ${String(row.requests).padStart(4)} questions in ${String(row.seconds).padStart(6)} s: ${String(row.answers_per_second).padStart(6)} answers/s, p50 ${String(row.p50_ms).padStart(6)} ms, p99 ${String(row.p99_ms).padStart(6)} ms, ${row.model_calls} model calls, at most ${row.most_model_calls_in_flight} in flight\n`);
    }
  } finally {
    await server.close();
  }
} finally {
  await standIn.close();
  rmSync(directory, { recursive: true, force: true });
}

/** The most requests the stand-in was answering at one time. */
function mostInFlight(recorded: Array<{ startedAt: number; finishedAt: number }>): number {
  const events = recorded.flatMap((request) => [[request.startedAt, 1], [request.finishedAt || Infinity, -1]] as const).sort((left, right) => left[0] - right[0] || left[1] - right[1]);
  let current = 0;
  let most = 0;
  for (const [, change] of events) {
    current += change;
    most = Math.max(most, current);
  }
  return most;
}
