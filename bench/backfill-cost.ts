// The "Done when" walkthrough of query-time schema growth, measured: the hotels sample ingested
// with a schema missing three attributes, then the sample questions that need them asked with
// `srag ask --extend-schema`, then asked again. Reports extraction requests and their average
// prompt and completion tokens, full-record requests (the ingest) against back-fill requests
// (only the new attributes). Runs against the LLM stand-in (token counts are the stand-in's
// o200k counts of what was sent and returned). Rerun: npx tsx bench/backfill-cost.ts
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { readGoldQuestions, rowsMatchGold } from '../tests/helpers/gold-questions.ts';
import { extractionCallCount } from '../tests/helpers/requested-attributes.ts';
import { runSrag } from '../tests/helpers/run-srag.ts';

const leftOut = ['has_pool', 'has_airport_shuttle', 'pets_allowed'];
const standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
const directory = mkdtempSync(join(tmpdir(), 'srag-backfill-bench-'));
const database = join(directory, 'hotels.duckdb');
const environment = { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-bench-not-a-real-key', SRAG_CONCURRENCY: '8' };
try {
  const schema = JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8'));
  for (const name of leftOut) delete schema.properties[name];
  const schemaFile = join(directory, 'without-three.schema.json');
  writeFileSync(schemaFile, JSON.stringify(schema));

  standIn.reset();
  const ingest = await runSrag(['ingest', 'examples/hotels/docs/*', '--schema', schemaFile, '--db', database, '--json'], { environment });
  if (ingest.status !== 0) throw new Error(ingest.stderr);
  const full = JSON.parse(ingest.stdout) as { calls: number; prompt_tokens: number; completion_tokens: number };
  const fullRequests = extractionCallCount(standIn.requests);

  const questions = readGoldQuestions('examples/hotels').filter((question) => leftOut.some((name) => question.sql.includes(name)));
  standIn.reset();
  const ask = await runSrag(['ask', ...questions.map((question) => question.question), '--extend-schema', '--json', '--db', database], { environment });
  if (ask.status !== 0) throw new Error(ask.stderr);
  const results = ask.stdout.trim().split('\n').map((line) => JSON.parse(line));
  const backfill = results.reduce((sum, result) => ({
    calls: sum.calls + result.extraction_usage.calls, prompt: sum.prompt + result.extraction_usage.promptTokens, completion: sum.completion + result.extraction_usage.completionTokens,
  }), { calls: 0, prompt: 0, completion: 0 });
  standIn.reset();
  const again = await runSrag(['ask', ...questions.map((question) => question.question), '--extend-schema', '--json', '--db', database], { environment });
  const againCalls = again.stdout.trim().split('\n').map((line) => JSON.parse(line).extraction_usage.calls as number).reduce((sum, calls) => sum + calls, 0);

  // Short documents share a request in both runs, so tokens are compared per document as well as per request.
  const backfills = results.filter((result) => result.extraction_usage.calls > 0).length;
  const perDocument = (tokens: number, runs: number) => tokens / (50 * runs);
  console.log(`questions needing the ${leftOut.length} left-out attributes: ${questions.length}; added per question: ${JSON.stringify(results.map((result) => result.added_attributes))}`);
  const exact = questions.filter((question, index) => rowsMatchGold(results[index].rows, question.gold as never)).length;
  console.log(`answered exactly (rows equal to the gold answer): ${exact} of ${questions.length}`);
  console.log(`back-fill: ${backfill.calls} extraction requests for 50 documents and ${leftOut.length} new attributes in ${backfills} back-fills, ${(backfill.calls / (50 * leftOut.length)).toFixed(3)} per document per new attribute (goal: at most 1, fewer with batching); asking again: ${againCalls} extraction calls`);
  console.log(`full-record ingest (${11} attributes): ${fullRequests} requests; per request ${(full.prompt_tokens / fullRequests).toFixed(0)} prompt + ${(full.completion_tokens / fullRequests).toFixed(0)} completion tokens; per document ${perDocument(full.prompt_tokens, 1).toFixed(0)} + ${perDocument(full.completion_tokens, 1).toFixed(0)}`);
  console.log(`back-fill (1–2 attributes): per request ${(backfill.prompt / backfill.calls).toFixed(0)} prompt + ${(backfill.completion / backfill.calls).toFixed(0)} completion tokens; per document and back-fill ${perDocument(backfill.prompt, backfills).toFixed(0)} + ${perDocument(backfill.completion, backfills).toFixed(0)}`);
  console.log(`ratio back-fill / full record, per document: prompt ${(perDocument(backfill.prompt, backfills) / perDocument(full.prompt_tokens, 1)).toFixed(2)}, completion ${(perDocument(backfill.completion, backfills) / perDocument(full.completion_tokens, 1)).toFixed(2)}`);
} finally {
  await standIn.close();
}
