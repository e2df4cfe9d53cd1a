import { countNoun, runExtraction, tableNameForSchema } from '../../../core/index.ts';
import { hashText } from '../hash-text.ts';
import { openSession } from '../open-session.ts';
import { adoptRelativeSources } from '../store/adopt-relative-sources.ts';
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
}

/** `srag ingest`: one record per document into the table; exit status 1 when any document failed. */
export async function ingestCommand(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const schema = await readSchemaFile(options.schema);
  const { documents, skipped, outsideLinks } = await resolveDocuments(patterns, { followLinks: options.followLinks });
  if (skipped.length) process.stderr.write(`skipping ${countNoun(skipped.length, 'file')} of unsupported type: ${listed(skipped)}\n`);
  if (outsideLinks.length) process.stderr.write(`skipping ${countNoun(outsideLinks.length, 'symbolic link')} that ${outsideLinks.length === 1 ? 'leads' : 'lead'} out of the given paths: ${listed(outsideLinks)} (pass --follow-links to read them)\n`);
  const table = tableNameForSchema(schema, options.table);
  const session = await openSession(options.db, { abortSignal });
  try {
    await session.store.registerTable(table, schema);
    const leftRelative = await adoptRelativeSources(session.store, table, documents);
    if (leftRelative > 0) {
      process.stderr.write(`note: ${countNoun(leftRelative, 'document')} of ${table} ${leftRelative === 1 ? 'was' : 'were'} ingested by an earlier srag from another directory (their paths are relative to it); run srag ingest there once to convert them, or they may appear twice\n`);
    }
    const store = session.store.extractionStore(table, schema);
    const client = session.modelClient({ cache: store.responseCache });
    const progress = createProgressReporter(documents.length);
    const stopRetryNotices = client.onRetry(progress.retry);
    let summary;
    try {
      summary = await runExtraction({
        client,
        prompts: session.prompts,
        schema,
        documents,
        store,
        retryFailed: options.retryFailed,
        retryHint: 'rerun with --retry-failed',
        withEvidence: options.evidence,
        maxInputTokens: session.settings.maxInputTokens,
        loadTokenCounter: session.loadTokenCounter,
        model: session.settings.extractModel,
        concurrency: session.settings.concurrency * 2,
        callWarningThreshold: session.settings.callWarningThreshold,
        hashText,
        onProgress: progress.update,
        onWarning: (line) => process.stderr.write(`\nwarning: ${line}\n`),
        cancellation: abortSignal,
      });
    } finally {
      stopRetryNotices();
      progress.stop();
    }
    const usage = client.usage.total();
    process.stdout.write(
      `${table}: ${summary.done} done${summary.withoutValues ? ` (${summary.withoutValues} with no values)` : ''}, ${summary.failed + summary.skippedFailed} failed, ` +
      `${summary.unchanged} unchanged${summary.empty ? `, ${summary.empty} empty` : ''}, ` +
      `${summary.fromCache} from cache; ${countNoun(usage.calls, 'model call')}, ${countNoun(usage.retries, 'retry', 'retries')}, ` +
      `${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens (${options.db})\n`,
    );
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

function listed(items: string[]): string {
  return `${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''}`;
}
