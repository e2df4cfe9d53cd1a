import { countNoun, ingestDocuments, tableNameForSchema } from '../../../core/index.ts';
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
}

/** `srag ingest`: one record per document into the table; exit status 1 when any document failed. */
export async function ingestCommand(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const schema = await readSchemaFile(options.schema);
  const { documents, skipped } = await resolveDocuments(patterns);
  if (skipped.length) process.stderr.write(`skipping ${countNoun(skipped.length, 'file')} of unsupported type: ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''}\n`);
  const table = tableNameForSchema(schema, options.table);
  const session = await openSession(options.db, { abortSignal });
  try {
    await session.store.registerTable(table, schema);
    const client = session.modelClient();
    const progress = createProgressReporter(documents.length);
    const stopRetryNotices = client.onRetry(progress.retry);
    let summary;
    try {
      summary = await ingestDocuments({
        client,
        prompts: session.prompts,
        schema,
        documents,
        store: session.store.recordStore(table, schema),
        retryFailed: options.retryFailed,
        withEvidence: options.evidence,
        maxInputTokens: session.settings.maxInputTokens,
        countTokens: await session.loadTokenCounter(),
        model: session.settings.extractModel,
        documentConcurrency: session.settings.concurrency * 2,
        onProgress: progress.update,
        abortSignal,
      });
    } finally {
      stopRetryNotices();
      progress.stop();
      await session.store.refreshStatistics(table, schema);
    }
    const usage = client.usage.total();
    process.stdout.write(
      `${table}: ${summary.done} done, ${summary.failed + summary.skippedFailed} failed, ${summary.unchanged} unchanged, ` +
      `${summary.fromCache} from cache; ${countNoun(usage.calls, 'model call')}, ${countNoun(usage.retries, 'retry', 'retries')}, ` +
      `${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens (${options.db})\n`,
    );
    for (const failure of summary.failures.slice(0, 10)) process.stderr.write(`failed: ${failure.source}: ${failure.error}\n`);
    if (summary.failures.length > 10) process.stderr.write(`… and ${summary.failures.length - 10} more; see srag sql -c "SELECT * FROM srag_ingestion_log WHERE status = 'failed'"\n`);
    if (summary.skippedFailed) process.stderr.write(`${countNoun(summary.skippedFailed, 'document')} failed in an earlier run and ${summary.skippedFailed === 1 ? 'was' : 'were'} left alone; rerun with --retry-failed\n`);
    return summary.failed + summary.skippedFailed > 0 ? 1 : 0;
  } finally {
    session.close();
  }
}
