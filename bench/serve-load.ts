// npm run bench:serve-load -- [--latency-ms 200] [--clients 50] [--requests 200] [--concurrent-queries 1,4]
//
// srag serve under load (issue 42: 50 concurrent POST /query reached 6.3 answers a second against
// 4.7 for one client, p50 7.8 s against 208 ms). The hotels sample is ingested into as many tables
// of the same documents as it takes for every request to be a question no earlier request asked
// (the response cache answers none of them: a cached reply would hide the model's latency); the
// stand-in model then answers every call after `--latency-ms`. For each number of sandboxes the
// server runs at once (`--concurrent-queries`, a list: the runs share the machine's state, so
// their ratios compare), one client asks its questions one after another, then `--clients`
// clients ask `--requests` questions together. Printed: answers a second, p50 and p99 of the
// latency, and how many model calls were in flight at most.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseRecordSchema } from '../core/index.ts';
import { resolveDocuments } from '../node/runtime/resolve-documents.ts';
import { ingestDocuments } from '../node/session/ingest-documents.ts';
import { openSession } from '../node/session/open-session.ts';
import { readTextFile } from '../node/runtime/read-text-file.ts';
import { startServe } from '../node/serve/start-serve.ts';
import { readGoldQuestions } from '../tests/helpers/gold-questions.ts';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { repositoryRoot } from '../tests/helpers/run-srag.ts';

const { values: options } = parseArgs({
  options: {
    'latency-ms': { type: 'string', default: '200' },
    clients: { type: 'string', default: '50' },
    requests: { type: 'string', default: '200' },
    'single-requests': { type: 'string', default: '20' },
    'concurrent-queries': { type: 'string', default: '4' },
  },
});
const latencyMs = Number(options['latency-ms']);
const clients = Number(options.clients);
const requests = Number(options.requests);
const singleRequests = Number(options['single-requests']);
const sandboxCounts = options['concurrent-queries'].split(',').map(Number);

const questions = readGoldQuestions('examples/hotels');
const tableCount = Math.ceil(((singleRequests + requests) * sandboxCounts.length) / questions.length);
const asked = Array.from({ length: tableCount }, (_, index) => questions.map((question) => ({ question: question.question, table: `hotels_${index + 1}` }))).flat();

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
  const rows: Array<Record<string, string | number>> = [];
  for (const [index, concurrentQueries] of sandboxCounts.entries()) {
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
          sandboxes: concurrentQueries, run: name, requests: work.length, clients: concurrency, seconds: Number(seconds.toFixed(2)),
          answers_per_second: Number((work.length / seconds).toFixed(2)), p50_ms: percentile(0.5), p99_ms: percentile(0.99),
          model_calls: standIn.requests.length, most_model_calls_in_flight: mostInFlight(standIn.requests),
        };
        process.stdout.write(`${JSON.stringify(row)}\n`);
        rows.push(row);
      };
      const mine = asked.slice(index * (singleRequests + requests), (index + 1) * (singleRequests + requests));
      await run('one client', mine.slice(0, singleRequests), 1);
      await run(`${clients} clients`, mine.slice(singleRequests), clients);
    } finally {
      await server.close();
    }
  }
  process.stderr.write(`\nmodel latency ${latencyMs} ms, SRAG_CONCURRENCY default\n`);
  for (const row of rows) {
    process.stderr.write(`${String(row.sandboxes).padStart(2)} at once, ${String(row.run).padEnd(12)} ${String(row.requests).padStart(4)} questions in ${String(row.seconds).padStart(6)} s: ${String(row.answers_per_second).padStart(6)} answers/s, p50 ${String(row.p50_ms).padStart(6)} ms, p99 ${String(row.p99_ms).padStart(6)} ms, ${row.model_calls} model calls, at most ${row.most_model_calls_in_flight} in flight\n`);
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
