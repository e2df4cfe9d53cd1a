import { countNoun, estimateExtractionRun, findModelPrice, SragError, tableNameForSchema, usageCost, type ModelPrice, type SynthesisReport } from '../../../core/index.ts';
import { hashText } from '../hash-text.ts';
import { ingestDocuments } from '../ingest-documents.ts';
import { loadModelPrices } from '../load-model-prices.ts';
import { openSession, type Session } from '../open-session.ts';
import { formatUsd } from './format-usd.ts';
import { createProgressReporter } from './progress-reporter.ts';
import { readSchemaFile } from './read-schema-file.ts';
import { resolveDocuments } from './resolve-documents.ts';

export interface IngestCommandOptions {
  schema: string;
  db: string;
  table?: string;
  retryFailed?: boolean;
  evidence: boolean;
  followLinks?: boolean;
  synthesize?: boolean;
  batchSize?: number;
  json?: boolean;
  dryRun?: boolean;
  maxCost?: number;
}

/** Documents named one by one where an accepted extractor failed; the rest are counted. */
const namedFallbacks = 5;

/** Exit status of a run stopped at --max-cost (the CLI's status for a quota that ran out). */
const budgetReachedStatus = 4;

/** `srag ingest`: one record per document into the table; exit status 1 when any document failed. */
export async function ingestCommand(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const schema = await readSchemaFile(options.schema);
  const { documents, skipped, outsideLinks } = await resolveDocuments(patterns, { followLinks: options.followLinks });
  if (skipped.length) process.stderr.write(`skipping ${countNoun(skipped.length, 'file')} of unsupported type: ${listed(skipped)}\n`);
  if (outsideLinks.length) process.stderr.write(`skipping ${countNoun(outsideLinks.length, 'symbolic link')} that ${outsideLinks.length === 1 ? 'leads' : 'lead'} out of the given paths: ${listed(outsideLinks)} (pass --follow-links to read them)\n`);
  const table = tableNameForSchema(schema, options.table);
  const session = await openSession(options.db, { abortSignal });
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
    if (options.dryRun) return await dryRun(session, { documents, schema, table, model, price, options });
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
        maxCost: options.maxCost !== undefined && price ? { usd: options.maxCost, price } : undefined,
        onProgress: progress.update,
        onRetry: progress.retry,
        onWarning: (line) => process.stderr.write(`\nwarning: ${line}\n`),
        onLeftRelative: (count) => {
          process.stderr.write(`note: ${countNoun(count, 'document')} of ${table} ${count === 1 ? 'was' : 'were'} ingested by an earlier srag from another directory (their paths are relative to it); run srag ingest there once to convert them, or they may appear twice\n`);
        },
        cancellation: abortSignal,
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
    const { summary, usage, synthesis } = result;
    const costUsd = price ? usageCost(usage, price) : null;
    if (options.json) {
      process.stdout.write(`${JSON.stringify({
        table, documents: summary.total, done: summary.done, without_values: summary.withoutValues, failed: summary.failed + summary.skippedFailed,
        unchanged: summary.unchanged, empty: summary.empty, from_cache: summary.fromCache, calls: usage.calls, retries: usage.retries,
        prompt_tokens: usage.promptTokens, cached_prompt_tokens: usage.cachedPromptTokens, completion_tokens: usage.completionTokens,
        cost_usd: costUsd, model, budget_reached: summary.budgetReached, database: options.db,
        ...(synthesis ? { synthesis } : {}),
      })}\n`);
    } else {
      // Cached prompt tokens only when the endpoint reported some (OpenAI's prompt caching; a local server may not say).
      const cached = usage.cachedPromptTokens > 0 ? ` (${usage.cachedPromptTokens} cached)` : '';
      const cost = costUsd === null ? '' : `, ${formatUsd(costUsd)}`;
      process.stdout.write(
        `${table}: ${summary.done} done${summary.withoutValues ? ` (${summary.withoutValues} with no values)` : ''}, ${summary.failed + summary.skippedFailed} failed, ` +
        `${summary.unchanged} unchanged${summary.empty ? `, ${summary.empty} empty` : ''}, ` +
        `${summary.fromCache} from cache; ${countNoun(usage.calls, 'model call')}, ${countNoun(usage.retries, 'retry', 'retries')}, ` +
        `${usage.promptTokens} prompt${cached} + ${usage.completionTokens} completion tokens${cost} (${options.db})\n`,
      );
      if (synthesis) process.stdout.write(`${describeSynthesis(synthesis)}\n`);
    }
    if (synthesis) {
      for (const line of fallbacks) process.stderr.write(`warning: ${line}\n`);
      if (fallbackCount > fallbacks.length) process.stderr.write(`… and ${fallbackCount - fallbacks.length} more documents where an extractor failed and the model read the value\n`);
    }
    if (summary.withoutValues) {
      process.stderr.write(`${countNoun(summary.withoutValues, 'record')} ${summary.withoutValues === 1 ? 'holds' : 'hold'} no value at all: the documents state none of the schema's attributes, or the schema does not fit them (srag stats shows how many rows are empty)\n`);
    }
    for (const failure of summary.failures.slice(0, 10)) process.stderr.write(`failed: ${failure.label}: ${failure.error}\n`);
    const failures = summary.failed + summary.skippedFailed;
    if (failures > 10) process.stderr.write(`… and ${failures - 10} more; see srag sql -c "SELECT * FROM srag_ingestion_log WHERE status = 'failed'"\n`);
    if (summary.skippedFailed) process.stderr.write(`${countNoun(summary.skippedFailed, 'document')} failed in an earlier run and ${summary.skippedFailed === 1 ? 'was' : 'were'} left alone; rerun with --retry-failed\n`);
    if (summary.budgetReached) {
      const left = summary.total - summary.done - summary.unchanged - summary.failed - summary.skippedFailed - summary.empty;
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
      `${accepted.length} of ${countNoun(synthesis.extractors.length, 'attribute')} from code${accepted.length ? ` (${accepted.map((extractor) => extractor.attribute).join(', ')})` : ''}; ${countNoun(values, 'value')} read by code in this run`,
    ...rejected.map((extractor) => `  ${extractor.attribute}: by the model (${extractor.reason})`),
  ].join('\n');
}

/** `--dry-run`: what the run would send, from the same plan, with no model call and no write. */
async function dryRun(session: Session, { documents, schema, table, model, price, options }: {
  documents: Awaited<ReturnType<typeof resolveDocuments>>['documents']; schema: Awaited<ReturnType<typeof readSchemaFile>>; table: string; model: string;
  price: ModelPrice | undefined; options: IngestCommandOptions;
}): Promise<number> {
  const estimate = await estimateExtractionRun({
    prompts: session.prompts, schema, documents, store: session.store.extractionStore(table, schema), withEvidence: options.evidence,
    retryFailed: options.retryFailed, maxInputTokens: session.settings.maxInputTokens, loadTokenCounter: session.loadTokenCounter,
    batchSize: options.batchSize, hashText,
  });
  const costUsd = price ? usageCost({ promptTokens: estimate.promptTokens, completionTokens: estimate.completionTokens }, price) : null;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({
      documents: estimate.toExtract, calls: estimate.calls, prompt_tokens: estimate.promptTokens, completion_tokens: estimate.completionTokens, cost_usd: costUsd,
      model, table, left_alone: estimate.leftAlone, unreadable: estimate.unreadable,
    })}\n`);
  } else {
    const cost = costUsd === null
      ? `cost unknown: no price for model "${model}" (add one to a prices file named by SRAG_PRICES)`
      : `about ${formatUsd(costUsd)} at ${model}'s prices (no prompt caching counted)`;
    const alone = estimate.leftAlone ? ` (${estimate.leftAlone} more unchanged or left alone)` : '';
    const unreadable = estimate.unreadable ? `, ${countNoun(estimate.unreadable, 'document')} unreadable` : '';
    process.stdout.write(
      `${table} (dry run, no model call): ${countNoun(estimate.toExtract, 'document')} to extract${alone}${unreadable}; ${countNoun(estimate.calls, 'model call')}, ` +
      `${estimate.promptTokens} prompt + ~${estimate.completionTokens} completion tokens; ${cost}\n`,
    );
  }
  return 0;
}

function listed(items: string[]): string {
  return `${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''}`;
}
