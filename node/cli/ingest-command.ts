import { existsSync } from 'node:fs';
import { batchApiPrice, countNoun, estimateExtractionRun, findModelPrice, SragError, tableNameForSchema, usageCost, type DocumentSource, type ModelPrice, type RecordSchema, type SynthesisReport } from '../../core/index.ts';
import { documentAtPath } from '../runtime/document-at-path.ts';
import { hashText } from '../runtime/hash-text.ts';
import { sragCommandLine } from '../runtime/quote-shell-argument.ts';
import { BatchJobs } from '../duckdb/store/batch-jobs.ts';
import { refuseReservedTableName } from '../duckdb/store/refuse-reserved-table-name.ts';
import { ingestDocuments } from '../session/ingest-documents.ts';
import { loadModelPrices } from '../runtime/load-model-prices.ts';
import { openSession, type Session } from '../session/open-session.ts';
import { formatUsd } from '../../core/index.ts';
import type { SchemaChange } from '../duckdb/store/compare-schemas.ts';
import { createProgressReporter } from './progress-reporter.ts';
import { readSchemaFile } from '../runtime/read-schema-file.ts';
import { resolveDocuments } from '../runtime/resolve-documents.ts';
import { terminalText } from './terminal-text.ts';
import { describeMovedDocuments } from '../session/describe-moved-documents.ts';
import { followingMovedDocuments, type MovedDocuments } from '../duckdb/store/moved-documents.ts';

export interface IngestCommandOptions {
  schema?: string;
  db: string;
  table?: string;
  retryFailed?: boolean;
  evidence: boolean;
  followLinks?: boolean;
  prune?: boolean;
  synthesize?: boolean;
  batchSize?: number;
  json?: boolean;
  dryRun?: boolean;
  maxCost?: number;
  batchApi?: boolean;
  resumeBatch?: boolean;
}

/** Documents named one by one where an accepted extractor failed; the rest are counted. */
const namedFallbacks = 5;

/** Exit status of a run stopped at --max-cost (the CLI's status for a quota that ran out). */
const budgetReachedStatus = 4;

/** `srag ingest`: one record per document into the table; exit status 1 when any document failed. */
export async function ingestCommand(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal): Promise<number> {
  if (options.resumeBatch) return resumeBatch(patterns, options, abortSignal);
  if (patterns.length === 0 || !options.schema) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: patterns.length === 0 ? 'srag ingest needs documents to extract' : 'srag ingest needs --schema FILE for its documents',
      hint: 'srag ingest "docs/*.html" --schema schema.json (or srag ingest --resume-batch to collect a Batch API submission)',
    });
  }
  const schema = await readSchemaFile(options.schema);
  const table = tableNameForSchema(schema, options.table);
  refuseReservedTableName(table, 'choose another name with --table');
  const { documents, skipped, outsideLinks } = await resolveDocuments(patterns, { followLinks: options.followLinks });
  if (skipped.length) process.stderr.write(`skipping ${countNoun(skipped.length, 'file')} of unsupported type: ${listed(skipped)}\n`);
  if (outsideLinks.length) process.stderr.write(`skipping ${countNoun(outsideLinks.length, 'symbolic link')} that ${outsideLinks.length === 1 ? 'leads' : 'lead'} out of the given paths: ${listed(outsideLinks)} (pass --follow-links to read them)\n`);
  // A dry run saves nothing: without a database yet, every document is new, and no file is made.
  const session = await openSession(options.dryRun && !existsSync(options.db) ? ':memory:' : options.db, { abortSignal });
  return ingestInto(session, { documents, schema, table }, options, abortSignal);
}

/** `srag ingest --resume-batch`: the documents of the table's submissions, with the table's schema. */
async function resumeBatch(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal): Promise<number> {
  if (patterns.length > 0) {
    throw new SragError({ code: 'INPUT_INVALID', message: '--resume-batch takes no documents: it finishes those the table\'s Batch API submissions list', hint: 'drop the document arguments, or run srag ingest DOCUMENTS --schema FILE --batch-api' });
  }
  const session = await openSession(options.db, { abortSignal, mustExist: true });
  let prepared: { documents: DocumentSource[]; schema: RecordSchema; table: string };
  try {
    const batchJobs = new BatchJobs(session.store);
    const tables = await batchJobs.tablesWithSubmissions();
    const table = options.table ?? (tables.length === 1 ? tables[0] : undefined);
    if (!table || !tables.includes(table)) {
      throw new SragError({
        code: 'INPUT_INVALID',
        message: tables.length === 0
          ? `no Batch API submission waits in ${options.db}`
          : table ? `no Batch API submission waits for table "${table}" in ${options.db}` : `${options.db} has Batch API submissions for several tables (${tables.join(', ')})`,
        hint: tables.length === 0 ? 'submit one with srag ingest DOCUMENTS --schema FILE --batch-api' : `pass --table with one of: ${tables.join(', ')}`,
      });
    }
    const { schema } = await session.store.tableInfo(table);
    const documents = (await batchJobs.listedSources(table)).map(documentAtPath);
    prepared = { documents, schema, table };
  } catch (error) {
    session.close();
    throw error;
  }
  return ingestInto(session, prepared, { ...options, batchApi: true }, abortSignal);
}

/** Runs the ingest into `table` and prints its summary; closes the session. */
async function ingestInto(session: Session, { documents, schema, table }: { documents: DocumentSource[]; schema: RecordSchema; table: string }, options: IngestCommandOptions, abortSignal: AbortSignal): Promise<number> {
  try {
    const model = session.settings.extractModel;
    const price = findModelPrice(loadModelPrices(), model);
    if (options.maxCost !== undefined && !price && !options.dryRun) {
      throw new SragError({
        code: 'INPUT_INVALID',
        message: `--max-cost needs the price of model "${model}", which srag does not know`,
        hint: `add it to a JSON file of prices and set SRAG_PRICES to its path: {"${model}": {"input": …, "cached_input": …, "output": …}} in USD per million tokens`,
      });
    }
    // Requests through the Batch API are billed at its price: --max-cost and --dry-run count them so.
    const runPrice = price && options.batchApi ? batchApiPrice(price) : price;
    if (options.dryRun) return await dryRun(session, { documents, schema, table, model, price: runPrice, options });
    const progress = createProgressReporter(documents.length);
    const fallbacks: string[] = [];
    let fallbackCount = 0;
    let result;
    try {
      result = await ingestDocuments(session, {
        documents,
        schema,
        table,
        retryFailed: options.retryFailed,
        retryHint: 'rerun with --retry-failed',
        withEvidence: options.evidence,
        batchSize: options.batchSize,
        maxCost: options.maxCost !== undefined && runPrice ? { usd: options.maxCost, price: runPrice } : undefined,
        onProgress: progress.update,
        onRetry: progress.retry,
        onWarning: (line) => process.stderr.write(`\nwarning: ${line}\n`),
        onSchemaChange: (change) => reportSchemaChange(table, change),
        onLeftRelative: (count) => {
          process.stderr.write(`note: ${countNoun(count, 'document')} of ${table} ${count === 1 ? 'was' : 'were'} ingested by an earlier srag from another directory (their paths are relative to it); run srag ingest there once to convert them, or they may appear twice\n`);
        },
        prune: options.prune,
        cancellation: abortSignal,
        batchApi: options.batchApi,
        onBatchLine: (line) => process.stderr.write(`${line}\n`),
        ...(options.synthesize ? {
          synthesize: {
            onFallback: ({ document, attribute, reason }) => {
              fallbackCount += 1;
              if (fallbacks.length < namedFallbacks) fallbacks.push(`${document}: the extractor of ${attribute} failed (${reason}); the model read it`);
            },
          },
        } : {}),
      });
    } finally {
      progress.stop();
    }
    const { summary, usage, synthesis, batch } = result;
    const found = result.movedDocuments ?? { moved: [], gone: [], pruned: false };
    reportMovedDocuments(table, found);
    const costUsd = price ? usageCost(usage, price) : null;
    const waiting = (batch?.deferredDocuments ?? 0) + (batch?.waitingDocuments ?? 0);
    const batchIds = batch ? [...batch.open.map((open) => open.id), ...batch.submitted] : [];
    if (options.json) {
      process.stdout.write(`${JSON.stringify({
        table, documents: summary.total, done: summary.done, without_values: summary.withoutValues, failed: summary.failed + summary.skippedFailed,
        unchanged: summary.unchanged, empty: summary.empty, from_cache: summary.fromCache, calls: usage.calls, retries: usage.retries,
        prompt_tokens: usage.promptTokens, cached_prompt_tokens: usage.cachedPromptTokens, completion_tokens: usage.completionTokens,
        reasoning_tokens: usage.reasoningTokens, calls_without_usage: usage.callsWithoutUsage,
        cost_usd: costUsd, model, budget_reached: summary.budgetReached, database: options.db,
        moved: found.moved.length, gone: found.gone.length, pruned: found.pruned ? found.gone.length : 0,
        ...(batch ? { batch_api: { waiting, submitted: batch.submitted, open: batch.open.map((open) => open.id), collected_replies: batch.collected.replies } } : {}),
        ...(synthesis ? { synthesis } : {}),
      })}\n`);
    } else {
      // Cached prompt tokens only when the endpoint reported some (OpenAI's prompt caching; a local server may not say).
      const cached = usage.cachedPromptTokens > 0 ? ` (${usage.cachedPromptTokens} cached)` : '';
      // Reasoning tokens are part of the completion tokens, billed as output; shown when the endpoint reports some.
      const reasoning = usage.reasoningTokens > 0 ? ` (${usage.reasoningTokens} reasoning)` : '';
      const cost = costUsd === null ? '' : `, ${formatUsd(costUsd)}`;
      process.stdout.write(
        `${table}: ${summary.done} done${summary.partial ? ` (${summary.partial} only new or changed attributes)` : ''}${summary.withoutValues ? ` (${summary.withoutValues} with no values)` : ''}, ${summary.failed + summary.skippedFailed} failed, ` +
        `${summary.unchanged} unchanged${summary.empty ? `, ${summary.empty} empty` : ''}${waiting ? `, ${waiting} waiting for the Batch API` : ''}, ` +
        `${summary.fromCache} from cache; ${countNoun(usage.calls, 'model call')}, ${countNoun(usage.retries, 'retry', 'retries')}, ` +
        `${usage.promptTokens} prompt${cached} + ${usage.completionTokens} completion tokens${reasoning}${cost} (${options.db})\n`,
      );
      if (usage.callsWithoutUsage > 0) {
        process.stderr.write(`the endpoint reported no token usage for ${countNoun(usage.callsWithoutUsage, 'call')}: their tokens${cost ? ' and cost' : ''} are estimated from the texts (about four characters a token)\n`);
      }
      if (synthesis) process.stdout.write(`${describeSynthesis(synthesis)}\n`);
    }
    if (batch && waiting > 0) {
      // With --json, stdout holds the one JSON line.
      (options.json ? process.stderr : process.stdout).write(`${batch.submitted.length ? `submitted batch ${batch.submitted.join(', ')}` : `waiting for batch ${batchIds.join(', ')}`}; ` +
        `${options.resumeBatch ? 'run it again later' : 're-run this command or'} \`${sragCommandLine(['ingest', '--resume-batch', ...(options.table ? ['--table', table] : [])], options.db)}\` to collect results\n`);
    }
    if (synthesis) {
      for (const line of fallbacks) process.stderr.write(`warning: ${line}\n`);
      if (fallbackCount > fallbacks.length) process.stderr.write(`… and ${fallbackCount - fallbacks.length} more documents where an extractor failed and the model read the value\n`);
    }
    if (summary.withoutValues) {
      process.stderr.write(`${countNoun(summary.withoutValues, 'record')} ${summary.withoutValues === 1 ? 'holds' : 'hold'} no value at all: the documents state none of the schema's attributes, or the schema does not fit them (srag stats shows how many rows are empty)\n`);
    }
    for (const failure of summary.failures.slice(0, 10)) process.stderr.write(`failed: ${terminalText(`${failure.label}: ${failure.error}`)}\n`);
    const failures = summary.failed + summary.skippedFailed;
    if (failures > 10) process.stderr.write(`… and ${failures - 10} more; see srag sql -c "SELECT * FROM srag_ingestion_log WHERE status = 'failed'"\n`);
    if (summary.skippedFailed) process.stderr.write(`${countNoun(summary.skippedFailed, 'document')} failed in an earlier run and ${summary.skippedFailed === 1 ? 'was' : 'were'} left alone; rerun with --retry-failed\n`);
    if (summary.budgetReached) {
      const left = summary.total - summary.done - summary.unchanged - summary.failed - summary.skippedFailed - summary.empty - summary.deferred;
      process.stderr.write(`stopped before spending more than --max-cost ${formatUsd(options.maxCost!)}: ${countNoun(left, 'document')} not extracted yet; what is done is saved — run the same command again to go on, with a higher --max-cost if needed\n`);
      return budgetReachedStatus;
    }
    return failures > 0 ? 1 : 0;
  } finally {
    session.close();
  }
}

/** The closing lines of --synthesize: which attributes code reads, and why the others stay with the model. */
function describeSynthesis(synthesis: SynthesisReport): string {
  if (synthesis.mode === 'skipped') return `synthesized extractors: none; ${synthesis.note}`;
  const accepted = synthesis.extractors.filter((extractor) => extractor.status === 'accepted');
  const rejected = synthesis.extractors.filter((extractor) => extractor.status === 'rejected');
  const values = Object.values(synthesis.valuesFromCode).reduce((sum, count) => sum + count, 0);
  return [
    `synthesized extractors ${synthesis.mode === 'reused' ? 'of an earlier run' : `checked on ${countNoun(synthesis.checkedDocuments, 'document')}`}: ` +
      `${accepted.length} of ${countNoun(synthesis.extractors.length, 'attribute')} from code${accepted.length ? ` (${accepted.map((extractor) => extractor.attribute).join(', ')})` : ''}; ${countNoun(values, 'value')} read by code in this run` +
      `${synthesis.recheckedDocuments ? `, ${countNoun(synthesis.recheckedDocuments, 'document')} read by the model too to check them` : ''}${synthesis.readAgain ? `; ${countNoun(synthesis.readAgain, 'record')} read again by the model after a check rejected an extractor` : ''}`,
    ...rejected.map((extractor) => `  ${extractor.attribute}: by the model (${extractor.reason})`),
  ].join('\n');
}

/** `--dry-run`: what the run would send, from the same plan, with no model call and no write. */
async function dryRun(session: Session, { documents, schema, table, model, price, options }: {
  documents: Awaited<ReturnType<typeof resolveDocuments>>['documents']; schema: Awaited<ReturnType<typeof readSchemaFile>>; table: string; model: string;
  price: ModelPrice | undefined; options: IngestCommandOptions;
}): Promise<number> {
  // Documents a Batch API batch still works on are left out of a run: of its estimate too.
  const waitingSources = await new BatchJobs(session.store).waitingSources(table);
  const toRun = documents.filter((document) => !waitingSources.has(document.source));
  const waiting = documents.length - toRun.length;
  // A moved document keeps its record (see followingMovedDocuments): the estimate finds it unchanged, and nothing moves.
  const store = await followingMovedDocuments(session.store, session.store.extractionStore(table, schema), { table, documents: toRun, plan: true });
  const estimate = await estimateExtractionRun({
    prompts: session.prompts, schema, documents: toRun, store, withEvidence: options.evidence,
    retryFailed: options.retryFailed, maxInputTokens: session.settings.maxInputTokens, loadTokenCounter: session.loadTokenCounter,
    batchSize: options.batchSize, hashText,
  });
  const costUsd = price ? usageCost({ promptTokens: estimate.promptTokens, completionTokens: estimate.completionTokens }, price) : null;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({
      documents: estimate.toExtract, calls: estimate.calls, prompt_tokens: estimate.promptTokens, completion_tokens: estimate.completionTokens, cost_usd: costUsd,
      model, table, left_alone: estimate.leftAlone, unreadable: estimate.unreadable, moved: store.moved.length, gone: store.gone().length, ...(waiting ? { waiting_for_batch_api: waiting } : {}),
    })}\n`);
  } else {
    const cost = costUsd === null
      ? `cost unknown: no price for model "${model}" (add one to a prices file named by SRAG_PRICES)`
      : options.batchApi
        ? `at most about ${formatUsd(costUsd)} at ${model}'s Batch API prices (half the usual, no prompt caching counted; answered within 24 hours)`
        : `at most about ${formatUsd(costUsd)} at ${model}'s prices (replies counted at their planned longest, no prompt caching)`;
    const overBudget = options.maxCost !== undefined && costUsd !== null && costUsd > options.maxCost
      ? ` — over --max-cost ${formatUsd(options.maxCost)}, so the run would stop early (what is done is kept; rerun to go on)` : '';
    const leftAlone = estimate.leftAlone + waiting;
    const alone = leftAlone ? ` (${leftAlone} more unchanged, left alone${waiting ? ' or waiting for the Batch API' : ''})` : '';
    const unreadable = estimate.unreadable ? `, ${countNoun(estimate.unreadable, 'document')} unreadable` : '';
    const spend = estimate.calls === 0 ? 'no model call to pay for'
      : `${countNoun(estimate.calls, 'model call')}, ${estimate.promptTokens} prompt + up to ~${estimate.completionTokens} completion tokens; ${cost}${overBudget}`;
    process.stdout.write(`${table} (dry run, no model call): ${countNoun(estimate.toExtract, 'document')} to extract${alone}${unreadable}; ${spend}\n`);
    reportMovedDocuments(table, { moved: store.moved, gone: store.gone(), pruned: false }, options.prune ? 'would prune' : 'dry run');
  }
  return 0;
}

/** Says on stderr which records followed their documents to new paths, and which documents are gone from theirs. */
function reportMovedDocuments(table: string, found: MovedDocuments, mode: 'run' | 'dry run' | 'would prune' = 'run'): void {
  for (const line of describeMovedDocuments(table, found, { mode, removeHint: `add --prune to remove ${found.gone.length === 1 ? 'it' : 'them'}` })) process.stderr.write(`${line}\n`);
}

function listed(items: string[]): string {
  return `${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''}`;
}

/** What a run with a grown or changed schema extracts, said before it starts. */
function reportSchemaChange(table: string, change: SchemaChange): void {
  const names = (attributes: Array<{ name: string }>) => attributes.map((attribute) => attribute.name).join(', ');
  const one = (attributes: unknown[], singular: string, plural: string) => (attributes.length === 1 ? singular : plural);
  if (change.added.length) process.stderr.write(`${table}: new ${one(change.added, 'attribute', 'attributes')} ${names(change.added)}: only ${one(change.added, 'it is', 'they are')} extracted for documents ingested before\n`);
  if (change.changed.length) process.stderr.write(`${table}: changed ${one(change.changed, 'definition', 'definitions')} of ${names(change.changed)}: ${one(change.changed, 'its values were', 'their values were')} cleared and ${one(change.changed, 'is', 'are')} extracted again\n`);
  if (change.kept.length) process.stderr.write(`${table}: keeps ${names(change.kept)}, which the schema file does not name (added by srag ask --extend-schema or an earlier schema); ${one(change.kept, 'it is', 'they are')} extracted for new documents too\n`);
}
