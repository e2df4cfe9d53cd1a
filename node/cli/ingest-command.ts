import { existsSync } from 'node:fs';
import { countNoun, SragError, tableNameForSchema } from '../../core/index.ts';
import type { SchemaChange } from '../duckdb/store/compare-schemas.ts';
import { refuseReservedTableName } from '../duckdb/store/refuse-reserved-table-name.ts';
import { readSchemaFile } from '../runtime/read-schema-file.ts';
import { resolveDocuments } from '../runtime/resolve-documents.ts';
import { ingest, type IngestRequest } from '../session/ingest.ts';
import { openSession } from '../session/open-session.ts';
import { printIngestOutcome } from './print-ingest-outcome.ts';
import { createProgressReporter, type ProgressReporter } from './progress-reporter.ts';

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

/** Exit status of a run stopped at --max-cost (the CLI's status for a quota that ran out). */
const budgetReachedStatus = 4;

/**
 * `srag ingest`: the ingest use case (`ingest`) on the command line — documents and schema read
 * from the arguments, the outcome printed (`printIngestOutcome`); exit status 1 when any document
 * failed, 4 when the run stopped at --max-cost.
 */
export async function ingestCommand(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const { session, request } = options.resumeBatch ? await resumeRequest(patterns, options, abortSignal) : await documentsRequest(patterns, options, abortSignal);
  try {
    let progress: ProgressReporter | undefined;
    let table = request.table ?? '';
    let outcome;
    try {
      outcome = await ingest(session, request, {
        onStart: (run) => {
          table = run.table;
          progress = createProgressReporter(run.documents);
        },
        onProgress: (update) => progress?.update(update),
        onRetry: (notice) => progress?.retry(notice),
        onWarning: (line) => process.stderr.write(`\nwarning: ${line}\n`),
        onSchemaChange: (change) => reportSchemaChange(table, change),
        onLeftRelative: (count) => {
          process.stderr.write(`note: ${countNoun(count, 'document')} of ${table} ${count === 1 ? 'was' : 'were'} ingested by an earlier srag from another directory (their paths are relative to it); run srag ingest there once to convert them, or they may appear twice\n`);
        },
        onBatchLine: (line) => process.stderr.write(`${line}\n`),
        cancellation: abortSignal,
      });
    } finally {
      progress?.stop();
    }
    printIngestOutcome(outcome, options);
    if (outcome.kind === 'dry-run') return 0;
    return outcome.ending === 'budget-reached' ? budgetReachedStatus : outcome.ending === 'failed' ? 1 : 0;
  } finally {
    session.close();
  }
}

/** The use case's options as the command line gives them. */
function requestOptions(options: IngestCommandOptions) {
  return {
    retryFailed: options.retryFailed, evidence: options.evidence, batchSize: options.batchSize, prune: options.prune, synthesize: options.synthesize,
    batchApi: options.batchApi, maxCostUsd: options.maxCost, dryRun: options.dryRun, retryHint: 'rerun with --retry-failed',
  };
}

/** `srag ingest DOCUMENTS --schema FILE`: the documents the arguments name, into the schema's table. */
async function documentsRequest(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal) {
  if (patterns.length === 0 || !options.schema) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: patterns.length === 0 ? 'srag ingest needs documents to extract' : 'srag ingest needs --schema FILE for its documents',
      hint: 'srag ingest "docs/*.html" --schema schema.json (or srag ingest --resume-batch to collect a Batch API submission)',
    });
  }
  const schema = await readSchemaFile(options.schema);
  const table = tableNameForSchema(schema, options.table);
  refuseReservedTableName(table);
  const { documents, skipped, outsideLinks } = await resolveDocuments(patterns, { followLinks: options.followLinks });
  if (skipped.length) process.stderr.write(`skipping ${countNoun(skipped.length, 'file')} of unsupported type: ${listed(skipped)}\n`);
  if (outsideLinks.length) process.stderr.write(`skipping ${countNoun(outsideLinks.length, 'symbolic link')} that ${outsideLinks.length === 1 ? 'leads' : 'lead'} out of the given paths: ${listed(outsideLinks)} (pass --follow-links to read them)\n`);
  // A dry run saves nothing: without a database yet, every document is new, and no file is made.
  const session = await openSession(options.dryRun && !existsSync(options.db) ? ':memory:' : options.db, { abortSignal, forIngest: true });
  const request: IngestRequest = { ...requestOptions(options), documents, schema, table };
  return { session, request };
}

/** `srag ingest --resume-batch`: the documents of the table's submissions, with the table's schema. */
async function resumeRequest(patterns: string[], options: IngestCommandOptions, abortSignal: AbortSignal) {
  if (patterns.length > 0) {
    throw new SragError({ code: 'INPUT_INVALID', message: '--resume-batch takes no documents: it finishes those the table\'s Batch API submissions list', hint: 'drop the document arguments, or run srag ingest DOCUMENTS --schema FILE --batch-api' });
  }
  const session = await openSession(options.db, { abortSignal, mustExist: true, forIngest: true });
  const request: IngestRequest = { ...requestOptions(options), resumeBatch: true, table: options.table };
  return { session, request };
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
