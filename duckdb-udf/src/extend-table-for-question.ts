import {
  countNoun, proposeTargetSchema, runExtraction, SragError,
  type AttributeDefinition, type RetryNotice, type RunProgress, type RunSummary, type TokenUsage,
} from '../../core/index.ts';
import { estimateBackfill, type BackfillEstimate } from './estimate-backfill.ts';
import { friendlyPath } from './friendly-path.ts';
import { hashText } from './hash-text.ts';
import type { Session } from './open-session.ts';
import { readDocumentFile } from './read-document-file.ts';

export interface ExtendTableOptions {
  /**
   * Asked before a back-fill of more than SRAG_CONFIRM_DOCUMENTS documents; false stops it
   * (CANCELLED, nothing extracted). Absent: the back-fill goes ahead (a server, a pipe) and the
   * estimate is only reported through `onNotice`.
   */
  confirm?: (estimate: BackfillEstimate) => Promise<boolean>;
  /** One line per event worth telling: attributes added, the estimate, the back-fill's outcome, rows not back-filled. */
  onNotice?: (line: string) => void;
  onProgress?: (progress: RunProgress) => void;
  onRetry?: (notice: RetryNotice) => void;
  cancellation?: { readonly aborted: boolean };
  /**
   * `srag ask --extend-schema --dry-run`: stop after the estimate — the target schema is asked for
   * (SRAG_MODEL), nothing is added to the table and no extraction call is made.
   */
  dryRun?: boolean;
}

export interface TableExtension {
  /** The attributes added for this question (empty when the table held everything it needs). */
  addedAttributes: AttributeDefinition[];
  /** The target-schema call (SRAG_MODEL). */
  proposalUsage: TokenUsage & { calls: number };
  /** The back-fill (SRAG_EXTRACT_MODEL): zero calls when no record lacked an attribute. */
  extractionUsage: TokenUsage & { calls: number; documents: number };
  /** The estimate said before the back-fill; absent when there was nothing to back-fill. */
  estimate?: BackfillEstimate;
  /** Documents the back-fill reported instead of extracting (changed or gone since their row was saved). */
  notBackfilled: RunSummary['failures'];
}

/**
 * The step `srag ask --extend-schema` (and `POST /query {extend_schema: true}`) takes before SQL is
 * written — SRAG's target schema at question time: the model names the attributes the question
 * needs that the table lacks; they are added to the table's stored schema (a NULL column each),
 * then every record that lacks an attribute of the schema — the new ones, or ones an interrupted
 * back-fill left — gets only those, extracted with SRAG_EXTRACT_MODEL from its document as it is
 * now (a changed or missing document is reported per row, never mixed in), evidence recorded.
 * Statistics are refreshed by the run, so the SQL prompt that follows sees the new columns.
 */
export async function extendTableForQuestion(session: Session, table: string, question: string, options: ExtendTableOptions = {}): Promise<TableExtension> {
  const notice = options.onNotice ?? (() => {});
  const info = await session.store.tableInfo(table);
  const proposal = await proposeTargetSchema({
    client: session.modelClient(), prompts: session.prompts, table, schema: info.schema, statistics: info.statistics, question, model: session.settings.model,
  });
  let schema = info.schema;
  if (options.dryRun) {
    schema = { ...info.schema, attributes: [...info.schema.attributes, ...proposal.attributes] };
  } else if (proposal.attributes.length) {
    schema = (await session.store.registerTable(table, { ...info.schema, attributes: [...info.schema.attributes, ...proposal.attributes] })).schema;
    notice(`${table}: added ${proposal.attributes.map((attribute) => `${attribute.name} (${attribute.kind})`).join(', ')} for this question`);
  }
  const sources = await session.store.incompleteSources(table, schema);
  const extension: TableExtension = {
    addedAttributes: proposal.attributes, proposalUsage: proposal.usage, extractionUsage: { calls: 0, promptTokens: 0, completionTokens: 0, documents: 0 }, notBackfilled: [],
  };
  if (sources.length === 0) return extension;
  // After an interrupted back-fill nothing is new, and any of the schema's attributes may be missing: the estimate takes them all.
  extension.estimate = await estimateBackfill({
    sources, missing: proposal.attributes.length ? proposal.attributes : schema.attributes, schema, prompts: session.prompts, model: session.settings.extractModel,
    maxInputTokens: session.settings.maxInputTokens, loadTokenCounter: session.loadTokenCounter,
  });
  if (options.dryRun) return extension;
  if (sources.length > session.settings.confirmDocuments) {
    notice(extension.estimate.text);
    if (options.confirm && !(await options.confirm(extension.estimate))) {
      throw new SragError({ code: 'CANCELLED', message: 'back-fill not started; nothing was extracted', hint: 'run the same command with --yes to go ahead, or raise SRAG_CONFIRM_DOCUMENTS' });
    }
  }
  const store = session.store.extractionStore(table, schema);
  const client = session.modelClient({ cache: store.responseCache });
  const documents = sources.map((source) => {
    const label = friendlyPath(source);
    return { source, label, read: () => readDocumentFile(source, { shownAs: label }) };
  });
  const before = client.usage.total();
  const stopRetryNotices = options.onRetry ? client.onRetry(options.onRetry) : () => {};
  let summary: RunSummary;
  try {
    summary = await runExtraction({
      client, prompts: session.prompts, schema, documents, store, backfill: true,
      maxInputTokens: session.settings.maxInputTokens, loadTokenCounter: session.loadTokenCounter, model: session.settings.extractModel,
      concurrency: session.settings.concurrency * 2, callWarningThreshold: session.settings.callWarningThreshold, hashText,
      onProgress: options.onProgress,
      onWarning: (line) => notice(`warning: ${line}`), cancellation: options.cancellation,
    });
  } finally {
    stopRetryNotices();
  }
  // The client is the session's for this table: several questions of one command share it, so this back-fill's share is a difference.
  const after = client.usage.total();
  extension.extractionUsage = {
    calls: after.calls - before.calls, promptTokens: after.promptTokens - before.promptTokens, completionTokens: after.completionTokens - before.completionTokens, documents: summary.done,
  };
  extension.notBackfilled = summary.failures;
  const usage = extension.extractionUsage;
  notice(`${table}: back-filled ${countNoun(summary.done, 'record')} with ${countNoun(usage.calls, 'extraction call')} (${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens)`);
  for (const failure of summary.failures.slice(0, 10)) notice(`not back-filled: ${failure.label}: ${failure.error}`);
  if (summary.failed + summary.stale > 10) notice(`… and ${summary.failed + summary.stale - 10} more; see srag sql -c "SELECT source, attribute, reason FROM srag_evidence WHERE reason IS NOT NULL"`);
  return extension;
}
