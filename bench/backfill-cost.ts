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

  const tokensOf = (stdout: string) => /(\d+) prompt \+ (\d+) completion tokens/.exec(stdout);

  standIn.reset();
  const ingest = await runSrag(['ingest', 'examples/hotels/docs/*', '--schema', schemaFile, '--db', database], { environment });
  if (ingest.status !== 0) throw new Error(ingest.stderr);
  const full = tokensOf(ingest.stdout)!;
  const fullRequests = standIn.requests.filter((request) => request.kind === 'extract-record').length;

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

  const fullPrompt = Number(full[1]) / fullRequests;
  const fullCompletion = Number(full[2]) / fullRequests;
  const backfillPrompt = backfill.prompt / backfill.calls;
  const backfillCompletion = backfill.completion / backfill.calls;
  console.log(`questions needing the ${leftOut.length} left-out attributes: ${questions.length}; added per question: ${JSON.stringify(results.map((result) => result.added_attributes))}`);
  const exact = questions.filter((question, index) => rowsMatchGold(results[index].rows, question.gold as never)).length;
  console.log(`answered exactly (rows equal to the gold answer): ${exact} of ${questions.length}`);
  console.log(`back-fill: ${backfill.calls} extraction requests for 50 documents, ${(backfill.calls / (50 * leftOut.length)).toFixed(2)} per document per new attribute (goal: at most 1, fewer with batching); asking again: ${againCalls} extraction calls`);
  console.log(`full-record request (11 attributes): ${fullPrompt.toFixed(0)} prompt + ${fullCompletion.toFixed(0)} completion tokens on average`);
  console.log(`back-fill request (1–2 attributes):  ${backfillPrompt.toFixed(0)} prompt + ${backfillCompletion.toFixed(0)} completion tokens on average`);
  console.log(`ratio back-fill / full: prompt ${(backfillPrompt / fullPrompt).toFixed(2)}, completion ${(backfillCompletion / fullCompletion).toFixed(2)}`);
} finally {
  await standIn.close();
}
