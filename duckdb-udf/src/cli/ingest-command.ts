import { countNoun, tableNameForSchema, type SynthesisReport } from '../../../core/index.ts';
import { ingestDocuments } from '../ingest-documents.ts';
import { openSession } from '../open-session.ts';
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
}

/** Documents named one by one where an accepted extractor failed; the rest are counted. */
const namedFallbacks = 5;

/** `srag ingest`: one record per document into the table; exit status 1 when any document failed. */
export async function ingestCommand(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const schema = await readSchemaFile(options.schema);
  const { documents, skipped, outsideLinks } = await resolveDocuments(patterns, { followLinks: options.followLinks });
  if (skipped.length) process.stderr.write(`skipping ${countNoun(skipped.length, 'file')} of unsupported type: ${listed(skipped)}\n`);
  if (outsideLinks.length) process.stderr.write(`skipping ${countNoun(outsideLinks.length, 'symbolic link')} that ${outsideLinks.length === 1 ? 'leads' : 'lead'} out of the given paths: ${listed(outsideLinks)} (pass --follow-links to read them)\n`);
  const table = tableNameForSchema(schema, options.table);
  const session = await openSession(options.db, { abortSignal });
  try {
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
    if (options.json) {
      process.stdout.write(`${JSON.stringify({
        table, documents: summary.total, done: summary.done, without_values: summary.withoutValues, failed: summary.failed + summary.skippedFailed,
        unchanged: summary.unchanged, empty: summary.empty, from_cache: summary.fromCache, calls: usage.calls, retries: usage.retries,
        prompt_tokens: usage.promptTokens, cached_prompt_tokens: usage.cachedPromptTokens, completion_tokens: usage.completionTokens, database: options.db,
        ...(synthesis ? { synthesis } : {}),
      })}\n`);
    } else {
      // Cached prompt tokens only when the endpoint reported some (OpenAI's prompt caching; a local server may not say).
      const cached = usage.cachedPromptTokens > 0 ? ` (${usage.cachedPromptTokens} cached)` : '';
      process.stdout.write(
        `${table}: ${summary.done} done${summary.withoutValues ? ` (${summary.withoutValues} with no values)` : ''}, ${summary.failed + summary.skippedFailed} failed, ` +
        `${summary.unchanged} unchanged${summary.empty ? `, ${summary.empty} empty` : ''}, ` +
        `${summary.fromCache} from cache; ${countNoun(usage.calls, 'model call')}, ${countNoun(usage.retries, 'retry', 'retries')}, ` +
        `${usage.promptTokens} prompt${cached} + ${usage.completionTokens} completion tokens (${options.db})\n`,
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

function listed(items: string[]): string {
  return `${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''}`;
}
