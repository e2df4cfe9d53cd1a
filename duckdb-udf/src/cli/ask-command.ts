import { countNoun, describeCoverage, SragError, type AskResult } from '../../../core/index.ts';
import { askInSession, pointsToSragAsk, type AskInSessionResult } from '../ask-in-session.ts';
import type { ExtendTableOptions } from '../extend-table-for-question.ts';
import { describeTableChoice } from '../catalog/describe-table-choice.ts';
import { dryRunExtension, type ExtensionDryRun } from '../dry-run-extension.ts';
import { embedderLoader } from '../embedder-loader.ts';
import { friendlyPath } from '../friendly-path.ts';
import { sragCommandLine } from '../quote-shell-argument.ts';
import { openSession, type Session } from '../open-session.ts';
import { sragExtractTables } from '../catalog/srag-extract-tables.ts';
import { askOverExtractTables, extractTablesAnswerJson, type ExtractTablesAnswer } from '../ask-over-extract-tables.ts';
import { confirmOnTerminal } from './confirm-on-terminal.ts';
import { formatUsd } from './format-usd.ts';
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
 * SQL it rests on. Without --table each question chooses its tables (`chooseTables`); with it,
 * the named table is the only one. By default the model that writes
 * the SQL also decides whether the question needs the documents' text (the S-RAG paper's hybrid
 * mode, §3.3): the SQL then selects documents, and the answer is read from them and names them.
 * Several questions share one session (one JSON object per line
 * with --json). A question whose SQL fails stops the command with its error, after the answers
 * printed so far. Over a database whose tables `srag_extract` made (`CREATE TABLE … AS SELECT *
 * FROM srag_extract(…)`), the questions are answered as `srag_ask` answers them in SQL
 * (`askOverExtractTables`), with the catalog, statistics and coverage of such tables.
 */
export async function askCommand(questions: string[], options: AskCommandOptions, abortSignal: AbortSignal): Promise<number> {
  if (options.dryRun && !options.extendSchema) {
    throw new SragError({ code: 'INPUT_INVALID', message: '--dry-run estimates the back-fill of --extend-schema; without it srag ask makes no extraction call', hint: 'add --extend-schema, or leave out --dry-run' });
  }
  const session = await openSession(options.db, { abortSignal, mustExist: true });
  try {
    if (options.dryRun) {
      for (const question of questions) {
        const estimate = await dryRunExtension(session, question, options.table);
        process.stdout.write(options.json ? `${JSON.stringify(estimate)}\n` : `${describeDryRun(estimate)}\n`);
      }
      return 0;
    }
    if (!options.table) await noteExtractTablesLeftOut(session, options.db);
    const loadEmbedder = embedderLoader(session);
    // Once a question finds only tables srag_extract made, the rest are asked of those tables too.
    let extractTables = false;
    for (const [index, question] of questions.entries()) {
      const heading = questions.length > 1 ? `${index > 0 ? '\n' : ''}Q: ${question}\n` : '';
      let asked: AskInSessionResult | undefined;
      if (!extractTables) {
        try {
          asked = await askInSession(session, question, {
            table: options.table,
            hybrid: options.hybrid,
            loadEmbedder,
            ...(options.extendSchema ? { extendSchema: extendOnTerminal(options, abortSignal) } : {}),
            extendHint: `add them (extracting only them from every document) with: ${sragCommandLine(['ask', question, '--extend-schema', ...options.table ? ['--table', options.table] : []], options.db)}`,
          });
        } catch (error) {
          if (!pointsToSragAsk(error)) throw error;
          if (options.hybrid) {
            throw new SragError({
              code: 'INPUT_INVALID',
              message: `--hybrid reads the documents of tables srag ingest made; the tables srag_extract made in ${options.db} are answered from SQL alone`,
              hint: 'leave out --hybrid',
            });
          }
          extractTables = true;
        }
      }
      if (extractTables) {
        // A connection of its own: the store's serves the response cache meanwhile.
        const connection = await session.store.instance.connect();
        let answer: ExtractTablesAnswer;
        try {
          answer = await askOverExtractTables(session, connection, question, { table: options.table, extend: options.extendSchema });
        } finally {
          connection.closeSync();
        }
        process.stdout.write(options.json ? `${JSON.stringify(extractTablesAnswerJson(answer))}\n` : `${heading}${describeExtractTablesAnswer(answer, options.db)}\n`);
        continue;
      }
      const { result, json, choice } = asked!;
      if (options.json) {
        process.stdout.write(`${JSON.stringify(json)}\n`);
      } else {
        const note = describeCoverage(result.coverage, {
          title: choice.tables.map((table) => table.schema.title).join(', '),
          whereToLook: (column, document) => `see ${sragCommandLine(['why', document ? documentName(document) : '<document>', column], options.db)}`,
        });
        const coverage = note ? `\nCoverage: ${note.split('\n').join('\n  ')}\n` : '';
        process.stdout.write(`${heading}${result.answer}\n${coverage}\n${describeTableChoice({ tables: choice.tables, joins: result.joins })}\n${renderEvidence(result)}\n`);
      }
    }
    return 0;
  } finally {
    session.close();
  }
}

/**
 * On a database that holds tables srag ingest or srag import made and tables made from
 * srag_extract, a question without --table chooses among the first kind only: says so on stderr,
 * once, with the option that reaches the others.
 */
async function noteExtractTablesLeftOut(session: Session, db: string): Promise<void> {
  const ingested = await session.store.tables();
  if (ingested.length === 0) return;
  const connection = await session.store.instance.connect();
  let made: string[];
  try {
    made = (await sragExtractTables(connection, ingested)).map((table) => table.name);
  } finally {
    connection.closeSync();
  }
  if (made.length === 0) return;
  process.stderr.write(`note: srag ask chooses among the tables srag ingest or srag import made (${ingested.join(', ')}); ${db} also holds ${made.length === 1 ? 'a table' : 'tables'} made from srag_extract (${made.join(', ')}): to ask ${made.length === 1 ? 'it' : 'one of them'}, add --table ${made.length === 1 ? made[0] : 'NAME'}\n`);
}

/** An answer over tables srag_extract made, as `srag ask` prints one: the answer, its coverage, the tables, the SQL and its rows. */
function describeExtractTablesAnswer(answer: ExtractTablesAnswer, db: string): string {
  const table = answer.tables.length === 1 ? answer.tables[0] : undefined;
  const note = describeCoverage(answer.coverage ?? undefined, {
    title: answer.tables.join(', '),
    whereToLook: (column, document) => `see ${sragCommandLine(['why', document ? documentName(document) : '<document>', column, ...(table ? ['--table', table] : [])], db)}`,
  });
  const coverage = note ? `\nCoverage: ${note.split('\n').join('\n  ')}\n` : '';
  const rows = formatTable({ columns: answer.columns, rows: answer.rows }, { maximumRows: shownRows });
  return `${answer.answer}\n${coverage}\n${answer.tables.length === 1 ? 'Table' : 'Tables'}: ${answer.tables.join(', ')} (made by srag_extract)\n`
    + `Path: sql (the answer rests on the rows below)\nSQL: ${answer.sql}\n${rows}${answer.cut ? `\n${answer.cut}` : ''}\n`;
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
function extendOnTerminal(options: AskCommandOptions, abortSignal: AbortSignal): ExtendTableOptions {
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
