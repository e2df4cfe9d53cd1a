import { answerJson, ask, estimateExtension, type ExtensionDryRun, type GrowOptions } from '../../app/index.ts';
import { countNoun, describeCoverage, formatUsd, SragError, type AskResult } from '../../core/index.ts';
import { describeTableChoice } from './describe-table-choice.ts';
import { embedderLoader } from '../session/embedder-loader.ts';
import { friendlyPath } from '../runtime/friendly-path.ts';
import { sragCommandLine } from '../runtime/quote-shell-argument.ts';
import { openSession } from '../session/open-session.ts';
import { sessionAskPorts } from '../session/session-ask-ports.ts';
import { confirmOnTerminal } from './confirm-on-terminal.ts';
import { formatTable } from './format-table.ts';
import { createProgressReporter, type ProgressReporter } from './progress-reporter.ts';

export interface AskCommandOptions {
  db: string;
  table?: string;
  json?: boolean;
  /** true: `--hybrid` (read the documents the SQL selects); false: `--no-hybrid` (SQL only); absent: the model decides per question. */
  hybrid?: boolean;
  /** Add the attributes each question needs that the table lacks, back-filled for every document, before answering. */
  extendSchema?: boolean;
  /** Do not ask before a large back-fill. */
  yes?: boolean;
  /** With `extendSchema`: print what the back-fill would cost and stop (no extraction call, nothing added). */
  dryRun?: boolean;
}

/** The file name of a document's path: what `srag why` needs to find it. */
function documentName(source: string): string {
  return source.slice(Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1);
}

/** Rows of a result shown under the answer; --json returns every row the engine returned. */
const shownRows = 100;

/**
 * `srag ask`: question → tables → SQL → answer; the answer always comes with the tables and the
 * SQL it rests on. Each question goes through app's `ask`, as on every surface: without --table it
 * chooses among every table of the database, whatever made it (`srag ingest`, `srag import`,
 * `srag_extract`); with it, the named table is the only one. By default the model that writes the
 * SQL also decides whether the question needs the documents' text (the S-RAG paper's hybrid mode,
 * §3.3). Several questions share one session (one JSON object per line with --json). A question
 * whose SQL fails stops the command with its error, after the answers printed so far.
 */
export async function askCommand(questions: string[], options: AskCommandOptions, abortSignal: AbortSignal): Promise<number> {
  if (options.dryRun && !options.extendSchema) {
    throw new SragError({ code: 'INPUT_INVALID', message: '--dry-run estimates the back-fill of --extend-schema; without it srag ask makes no extraction call', hint: 'add --extend-schema, or leave out --dry-run' });
  }
  const session = await openSession(options.db, { abortSignal, mustExist: true });
  // A connection of its own for the question's reads: the store's serves the response cache meanwhile.
  const connection = await session.store.instance.connect();
  try {
    const ports = sessionAskPorts(session, connection, { loadEmbedder: embedderLoader(session) });
    for (const [index, question] of questions.entries()) {
      if (options.dryRun) {
        const estimate = await estimateExtension(ports, question, { table: options.table, extractModel: session.settings.extractModel });
        process.stdout.write(options.json ? `${JSON.stringify(estimate)}\n` : `${describeDryRun(estimate)}\n`);
        continue;
      }
      const answer = await ask(ports, question, {
        table: options.table,
        hybrid: options.hybrid,
        ...(options.extendSchema ? { extend: extendOnTerminal(options, abortSignal) } : {}),
      });
      const grown = answer.extension;
      if (grown && grown.addedAttributes.length === 0 && !grown.estimate) {
        // Said, since nothing else shows it: the question was answered from columns the table had.
        const growable = answer.chosen.filter((table) => table.madeBy === 'srag ingest').map((table) => table.name);
        process.stderr.write(`note: ${growable.join(', ') || 'the table'} already ${growable.length > 1 ? 'hold' : 'holds'} what the question needs: --extend-schema added no attribute and extracted nothing\n`);
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify(answerJson(answer))}\n`);
        continue;
      }
      const heading = questions.length > 1 ? `${index > 0 ? '\n' : ''}Q: ${question}\n` : '';
      const note = describeCoverage(answer.coverage, {
        title: answer.chosen.map((table) => table.schema.title).join(', '),
        whereToLook: (column, document) => {
          const tableArgument = answer.chosen.length === 1 && answer.chosen[0]!.madeBy === 'srag_extract' ? ['--table', answer.chosen[0]!.name] : [];
          return `see ${sragCommandLine(['why', document ? documentName(document) : '<document>', column, ...tableArgument], options.db)}`;
        },
      });
      const coverage = note ? `\nCoverage: ${note.split('\n').join('\n  ')}\n` : '';
      process.stdout.write(`${heading}${answer.answer}\n${coverage}\n${describeTableChoice({ tables: answer.chosen, joins: answer.joins })}\n${renderEvidence(answer)}\n`);
    }
    return 0;
  } finally {
    connection.closeSync();
    session.close();
  }
}

/** What the answer rests on: the path taken, then the rows, or the documents read and those that could not be. */
function renderEvidence(result: AskResult): string {
  if (result.path === 'sql') return `Path: sql (the answer rests on the rows below)\nSQL: ${result.sql}\n${formatTable(result, { maximumRows: shownRows })}`;
  const documents = result.documents ?? [];
  const lines = [
    `Path: hybrid (the answer was read from ${countNoun(documents.length, 'document')} of the ${result.selectedDocuments ?? 0} the SQL selected)`,
    `SQL: ${result.sql}`,
    ...documents.map((source) => `  read: ${friendlyPath(source)}`),
    ...(result.documentProblems ?? []).map((problem) => `  not read: ${problem.message}`),
  ];
  return lines.join('\n');
}

/**
 * `--extend-schema` on the command line: lines on stderr, a progress bar on a terminal, and before
 * a back-fill over SRAG_CONFIRM_DOCUMENTS documents a question on the terminal — unless `--yes`,
 * or there is no terminal to ask on (a pipe, a script), where the estimate is printed and it goes on.
 */
function extendOnTerminal(options: AskCommandOptions, abortSignal: AbortSignal): Omit<GrowOptions, 'dryRun'> {
  let progress: ProgressReporter | undefined;
  return {
    onNotice: (line) => process.stderr.write(`${line}\n`),
    onProgress: (update) => {
      progress ??= createProgressReporter(update.total);
      progress.update(update);
      if (update.completed >= update.total) progress.stop();
    },
    onRetry: (notice) => progress?.retry(notice),
    cancellation: abortSignal,
    ...(options.yes || !process.stdin.isTTY ? {} : { confirm: (estimate) => confirmOnTerminal(`${estimate.text}. Go ahead? [y/N] `, abortSignal) }),
  };
}

/** `--extend-schema --dry-run`'s line: what would be added, and the back-fill's documents, calls, tokens and cost. */
function describeDryRun(estimate: ExtensionDryRun): string {
  const added = estimate.added_attributes.length ? `would add ${estimate.added_attributes.join(', ')}` : 'needs no new attribute';
  if (estimate.documents === 0) return `${estimate.table}: ${added}; nothing to back-fill (no extraction call)`;
  const cost = estimate.cost_usd === null ? `no price for ${estimate.model} (SRAG_PRICES adds one)` : `about ${formatUsd(estimate.cost_usd)}`;
  return `${estimate.table}: ${added} and back-fill ${countNoun(estimate.documents, 'document')}: about ${countNoun(estimate.calls, 'extraction call')}, `
    + `${estimate.prompt_tokens.toLocaleString('en-US')} prompt + ${estimate.completion_tokens.toLocaleString('en-US')} completion tokens to ${estimate.model}, ${cost}; nothing was extracted (dry run)`;
}
