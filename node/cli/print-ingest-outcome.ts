import { countNoun, formatUsd, type SynthesisReport } from '../../core/index.ts';
import type { MovedDocuments } from '../duckdb/store/moved-documents.ts';
import { sragCommandLine } from '../runtime/quote-shell-argument.ts';
import { describeMovedDocuments } from '../session/describe-moved-documents.ts';
import { describeSynthesisFallbacks } from '../session/describe-synthesis-fallbacks.ts';
import { ingestOutcomeJson } from '../session/ingest-outcome-json.ts';
import type { IngestEstimate, IngestOutcome, IngestReport } from '../session/ingest-outcome.ts';
import { terminalText } from './terminal-text.ts';

/** The command line an outcome is printed for. */
interface PrintOptions {
  db: string;
  json?: boolean;
  /** The table as the command line named it (`--table`), kept in the command it suggests. */
  table?: string;
  resumeBatch?: boolean;
}

/**
 * `srag ingest`'s words for an ingest's outcome: the summary line (or, with `--json`, its JSON
 * line) on stdout, and on stderr what a user should know — failures, documents left for later, the
 * budget it stopped at, moved and gone documents.
 */
export function printIngestOutcome(outcome: IngestOutcome, options: PrintOptions): void {
  if (outcome.kind === 'dry-run') printEstimate(outcome, options);
  else printReport(outcome, options);
}

function printReport(report: IngestReport, options: PrintOptions): void {
  const { table, summary, usage, batch, synthesis } = report;
  reportMovedDocuments(table, report.movedDocuments);
  const waiting = batch?.waiting ?? 0;
  if (options.json) {
    process.stdout.write(`${JSON.stringify(ingestOutcomeJson(report, { database: options.db }))}\n`);
  } else {
    // Cached prompt tokens only when the endpoint reported some (OpenAI's prompt caching; a local server may not say).
    const cached = usage.cachedPromptTokens > 0 ? ` (${usage.cachedPromptTokens} cached)` : '';
    // Reasoning tokens are part of the completion tokens, billed as output; shown when the endpoint reports some.
    const reasoning = usage.reasoningTokens > 0 ? ` (${usage.reasoningTokens} reasoning)` : '';
    const cost = report.costUsd === null ? '' : `, ${formatUsd(report.costUsd)}`;
    process.stdout.write(
      `${table}: ${summary.done} done${summary.partial ? ` (${summary.partial} only new or changed attributes)` : ''}${summary.withoutValues ? ` (${summary.withoutValues} with no values)` : ''}, ${report.failed} failed, ` +
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
    const batchIds = [...batch.open, ...batch.submitted];
    // With --json, stdout holds the one JSON line.
    (options.json ? process.stderr : process.stdout).write(`${batch.submitted.length ? `submitted batch ${batch.submitted.join(', ')}` : `waiting for batch ${batchIds.join(', ')}`}; ` +
      `${options.resumeBatch ? 'run it again later' : 're-run this command or'} \`${sragCommandLine(['ingest', '--resume-batch', ...(options.table ? ['--table', table] : [])], options.db)}\` to collect results\n`);
  }
  if (report.fallbacks) {
    describeSynthesisFallbacks(report.fallbacks).forEach((line, index) => process.stderr.write(`${index < report.fallbacks!.named.length ? 'warning: ' : ''}${line}\n`));
  }
  if (summary.withoutValues) {
    process.stderr.write(`${countNoun(summary.withoutValues, 'record')} ${summary.withoutValues === 1 ? 'holds' : 'hold'} no value at all: the documents state none of the schema's attributes, or the schema does not fit them (srag stats shows how many rows are empty)\n`);
  }
  for (const failure of summary.failures.slice(0, 10)) process.stderr.write(`failed: ${terminalText(`${failure.label}: ${failure.error}`)}\n`);
  if (report.failed > 10) process.stderr.write(`… and ${report.failed - 10} more; see srag sql -c "SELECT * FROM srag_ingestion_log WHERE status = 'failed'"\n`);
  if (summary.skippedFailed) process.stderr.write(`${countNoun(summary.skippedFailed, 'document')} failed in an earlier run and ${summary.skippedFailed === 1 ? 'was' : 'were'} left alone; rerun with --retry-failed\n`);
  if (report.ending === 'budget-reached' && report.budget) {
    process.stderr.write(`stopped before spending more than --max-cost ${formatUsd(report.budget.maxCostUsd)}: ${countNoun(report.budget.notStarted, 'document')} not extracted yet; what is done is saved — run the same command again to go on, with a higher --max-cost if needed\n`);
  }
}

/** `--dry-run`'s line: what the run would send and cost. */
function printEstimate(estimate: IngestEstimate, options: PrintOptions): void {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(ingestOutcomeJson(estimate, { database: options.db }))}\n`);
    return;
  }
  const { model, costUsd } = estimate;
  const cost = costUsd === null
    ? `cost unknown: no price for model "${model}" (add one to a prices file named by SRAG_PRICES)`
    : estimate.batchApi
      ? `at most about ${formatUsd(costUsd)} at ${model}'s Batch API prices (half the usual, no prompt caching counted; answered within 24 hours)`
      : `at most about ${formatUsd(costUsd)} at ${model}'s prices (replies counted at their planned longest, no prompt caching)`;
  const overBudget = estimate.overBudget ? ` — over --max-cost ${formatUsd(estimate.maxCostUsd!)}, so the run would stop early (what is done is kept; rerun to go on)` : '';
  const waiting = estimate.waitingForBatchApi;
  const leftAlone = estimate.leftAlone + waiting;
  const alone = leftAlone ? ` (${leftAlone} more unchanged, left alone${waiting ? ' or waiting for the Batch API' : ''})` : '';
  const unreadable = estimate.unreadable ? `, ${countNoun(estimate.unreadable, 'document')} unreadable` : '';
  const spend = estimate.calls === 0 ? 'no model call to pay for'
    : `${countNoun(estimate.calls, 'model call')}, ${estimate.promptTokens} prompt + up to ~${estimate.completionTokens} completion tokens; ${cost}${overBudget}`;
  process.stdout.write(`${estimate.table} (dry run, no model call): ${countNoun(estimate.documents, 'document')} to extract${alone}${unreadable}; ${spend}\n`);
  reportMovedDocuments(estimate.table, estimate.movedDocuments, estimate.prune ? 'would prune' : 'dry run');
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

/** Says on stderr which records followed their documents to new paths, and which documents are gone from theirs. */
function reportMovedDocuments(table: string, found: MovedDocuments, mode: 'run' | 'dry run' | 'would prune' = 'run'): void {
  for (const line of describeMovedDocuments(table, found, { mode, removeHint: `add --prune to remove ${found.gone.length === 1 ? 'it' : 'them'}` })) process.stderr.write(`${line}\n`);
}
