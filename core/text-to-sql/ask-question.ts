import { SqlFailedError } from '../errors/sql-failed-error.ts';
import { answerFromDocuments, type HybridReading } from '../hybrid/answer-from-documents.ts';
import { replyInstructions, sqlReplySchema, type AnswerPath, type AnswerPathChoice } from '../hybrid/answer-path.ts';
import type { DocumentProblem } from '../hybrid/document-problem.ts';
import { selectedSources, sourceColumn } from '../hybrid/selected-sources.ts';
import { SragError } from '../errors/srag-error.ts';
import { generateObject } from '../language-model/generate-object.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { ChatMessage, TokenUsage } from '../ports/language-model.ts';
import type { CoverageSource } from '../ports/coverage-source.ts';
import type { ResultCut, SqlEngine, SqlResult, SqlValue } from '../ports/sql-engine.ts';
import type { ColumnCoverage } from '../coverage/column-coverage.ts';
import { renderCoverageForPrompt } from '../coverage/render-coverage-for-prompt.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { CatalogTable } from '../table-choice/catalog-table.ts';
import type { TableLink } from '../table-choice/table-link.ts';
import { checkGeneratedSql } from './check-generated-sql.ts';
import { joinsUsedBy } from './joins-used-by.ts';
import { renderJoinKeys, renderTableForSql } from './render-table-for-sql.ts';
import { describeRowCount, formatRowsForPrompt } from './format-rows-for-prompt.ts';

export interface AskQuestionOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  sqlEngine: SqlEngine;
  /** The tables the SQL may read (one, or the set `chooseTables` picked); the sandbox holds exactly these. */
  tables: CatalogTable[];
  /** How `tables` join, shown to the model as join keys; empty or absent for one table. */
  joins?: TableLink[];
  question: string;
  model?: string;
  /**
   * Default true. False skips the last model call that words the answer (`answer` is then empty):
   * callers that show the rows themselves, such as a spreadsheet cell, need no prose.
   */
  withAnswer?: boolean;
  /**
   * Where the evidence behind the table's values is counted (see `CoverageSource`); without one,
   * `coverage` is absent and the answer prompt says coverage is unknown.
   */
  coverage?: CoverageSource;
  /**
   * Which answer paths the question may take (the S-RAG paper's hybrid mode, §3.3): `sql` (the
   * default), `auto` (the SQL-writing model decides per question) or `hybrid` (forced). `auto` and
   * `hybrid` need `hybrid` (how the selected documents are read).
   */
  answerPath?: AnswerPathChoice;
  hybrid?: HybridReading;
}

export interface AskResult {
  answer: string;
  sql: string;
  /** The tables the question was answered from (the prompt showed these and no other). */
  tables: string[];
  /** The offered joins the SQL used (`joinsUsedBy`): both columns named in the query. */
  joins: TableLink[];
  columns: string[];
  rows: SqlValue[][];
  /** What the engine left out of the result to keep it bounded (see `ResultCut`); absent when nothing was cut. */
  cut?: ResultCut;
  /**
   * Per column the SQL reads: how many of the rows it counts over state the value, do not state it,
   * had it dropped, or are of unknown footing (`describeCoverage` words it). Absent when the table
   * keeps no evidence or it could not be counted.
   */
  coverage?: ColumnCoverage[];
  usage: TokenUsage & { calls: number };
  /** `sql`: the answer rests on the rows; `hybrid`: on the text of the documents the rows name. */
  path: AnswerPath;
  /** Hybrid path: the documents whose text the answer model read, as the table names them (`_source`). */
  documents?: string[];
  /** Hybrid path: how many distinct documents the query selected. */
  selectedDocuments?: number;
  /** Hybrid path: selected documents left unread because they are missing or changed since ingestion. */
  documentProblems?: DocumentProblem[];
}

/**
 * Question → SQL → rows → answer (the S-RAG paper, §3.3). The prompt carries each table's schema
 * and statistics, the join keys between the tables, and dialect notes; the SQL is checked by the
 * engine's parser, may read only `tables`, and runs in a sandbox holding exactly those; an
 * execution error (or a refusal) gets one repair round with the error text; the answer cites the SQL.
 */
export async function askQuestion(options: AskQuestionOptions): Promise<AskResult> {
  const { client, prompts, sqlEngine, tables, question } = options;
  const tableNames = tables.map((table) => table.name);
  const choice = options.answerPath ?? 'sql';
  if (choice !== 'sql' && !options.hybrid) {
    throw new SragError({ code: 'INPUT_INVALID', message: `askQuestion: answerPath "${choice}" needs hybrid (how to read the selected documents)` });
  }
  const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
  const add = (spent: TokenUsage, cached: boolean) => {
    usage.promptTokens += spent.promptTokens;
    usage.completionTokens += spent.completionTokens;
    if (!cached) usage.calls += 1;
  };
  const conversation: ChatMessage[] = [
    { role: 'system', content: renderSqlInstructions(prompts, tables, options.joins ?? [], sqlEngine.dialect, choice) },
    { role: 'user', content: question },
  ];
  const requestSql = async (messages: ChatMessage[]) => {
    const result = await generateObject({
      client,
      step: `writing SQL for "${question}"`,
      request: { model: options.model, messages, outputSchema: sqlReplySchema(choice) },
      validate: (value: unknown) => readSqlReply(value, choice),
    });
    add(result.usage, result.cached);
    return result.value;
  };

  let reply = await requestSql(conversation);
  if ('missingAttributes' in reply) throw attributesMissing(tableNames, question, reply.missingAttributes);
  let sql = reply.sql;
  let outcome = await runChecked(sqlEngine, sql, tableNames, reply.path);
  if ('error' in outcome) {
    const repair: ChatMessage[] = [
      ...conversation,
      { role: 'assistant', content: JSON.stringify(choice === 'auto' ? reply : { sql }) },
      { role: 'user', content: renderPrompt(prompts['repair-sql'], { sql, error: outcome.error.message }) },
    ];
    const repaired = await requestSql(repair);
    if ('missingAttributes' in repaired) throw attributesMissing(tableNames, question, repaired.missingAttributes);
    reply = repaired;
    sql = reply.sql;
    outcome = await runChecked(sqlEngine, sql, tableNames, reply.path);
    if ('error' in outcome) {
      if (outcome.error.code === 'SQL_REJECTED') throw outcome.error;
      throw new SqlFailedError({ sql, question, engineMessage: outcome.error.message, cause: outcome.error });
    }
  }
  const { columns, rows, cut } = outcome.result;
  // Coverage is counted from one table's evidence; an answer joined across tables, or read from an
  // imported table (which keeps no evidence), leaves it unknown, and the answer prompt says so.
  const [onlyTable] = tables;
  // A child entity's table keeps its evidence per item (`price_per_night[2]`), which coverage does not count: unknown.
  const coverage = options.coverage && tables.length === 1 && onlyTable!.origin === 'extracted' && !onlyTable!.parent
    ? await countCoverage(options.coverage, sql, onlyTable!.name, onlyTable!.schema) : undefined;
  const returned = { sql, tables: tableNames, joins: joinsUsedBy(sql, options.joins ?? []), columns, rows, ...(cut ? { cut } : {}), ...(coverage ? { coverage } : {}), path: reply.path };
  if (reply.path === 'hybrid') {
    // A separate step after the SQL: the rows name the documents, their text gives the answer.
    const sources = selectedSources(outcome.result)!;
    if (options.withAnswer === false) return { answer: '', ...returned, usage };
    const read = await answerFromDocuments({
      ...options.hybrid!, client, prompts, question, sql, sources, selectionCut: cut?.rowsOmitted === true, model: options.model,
    });
    add(read.usage, read.usage.calls === 0);
    return { answer: read.answer, ...returned, documents: read.documents, selectedDocuments: read.selectedDocuments, documentProblems: read.documentProblems, usage };
  }
  if (options.withAnswer === false) return { answer: '', ...returned, usage };
  const answerResult = await client.generate(
    {
      model: options.model,
      messages: [{
        role: 'user',
        content: renderPrompt(prompts.answer, { question, sql, row_count: describeRowCount(outcome.result), rows: formatRowsForPrompt(outcome.result), coverage: renderCoverageForPrompt(coverage, tables.map((table) => table.schema.title).join(', ')) }),
      }],
    },
    (response) => response,
  );
  add(answerResult.usage, answerResult.cached === true);
  return { answer: answerResult.text.trim(), ...returned, usage };
}

/**
 * Coverage is said with the answer, never instead of it: a count that fails (the evidence is
 * unreadable) leaves the coverage unknown, as it is for a table without evidence.
 */
async function countCoverage(source: CoverageSource, sql: string, table: string, schema: RecordSchema): Promise<ColumnCoverage[] | undefined> {
  try {
    return await source.countCoverage(sql, table, schema.attributes.map((attribute) => attribute.name));
  } catch (error) {
    if (SragError.isInstance(error) && (error.code === 'SQL_FAILED' || error.code === 'TABLE_NOT_FOUND')) return undefined;
    throw error;
  }
}

/**
 * The SQL reply and the path it takes: the forced or only path, or with `auto` the one the model
 * chose (a reply without one, such as a cached one from before, takes `sql`). Or, in place of SQL,
 * the attributes the model says the tables lack (it may not answer with a proxy column):
 * `{"sql": "", "missing_attributes": [...]}`.
 */
function readSqlReply(value: unknown, choice: AnswerPathChoice): { value: { sql: string; path: AnswerPath } | { missingAttributes: string[] } } | { problems: string[] } {
  const reply = typeof value === 'object' && value !== null ? (value as { sql?: unknown; path?: unknown; missing_attributes?: unknown }) : {};
  if (Array.isArray(reply.missing_attributes) && (typeof reply.sql !== 'string' || !reply.sql.trim())) {
    const names = reply.missing_attributes.filter((name): name is string => typeof name === 'string' && name.trim() !== '');
    if (names.length) return { value: { missingAttributes: names } };
  }
  if (typeof reply.sql !== 'string' || !reply.sql.trim()) return { problems: ['the reply must be {"sql": "<one SELECT statement>"}'] };
  if (choice === 'auto' && reply.path !== undefined && reply.path !== 'sql' && reply.path !== 'hybrid') {
    return { problems: ['"path" must be "sql" or "hybrid"'] };
  }
  const path: AnswerPath = choice === 'auto' ? (reply.path === 'hybrid' ? 'hybrid' : 'sql') : choice;
  return { value: { sql: reply.sql.trim().replace(/;\s*$/, ''), path } };
}

/**
 * The question needs facts no column holds: said plainly, with no answer from a stand-in column.
 * Surfaces replace the hint with the exact command that adds them (`srag ask --extend-schema`).
 */
function attributesMissing(tables: string[], question: string, names: string[]): SragError {
  return new SragError({
    code: 'ATTRIBUTES_MISSING',
    message: `"${question}" needs ${names.length === 1 ? 'an attribute' : 'attributes'} the ${tables.length === 1 ? 'table' : 'tables'} ${tables.map((table) => `"${table}"`).join(', ')} ${tables.length === 1 ? 'does' : 'do'} not hold: ${names.join(', ')}`,
    hint: 'ask with --extend-schema to add and extract them (srag ask), or add them to the schema file and ingest again',
  });
}

async function runChecked(sqlEngine: SqlEngine, sql: string, tables: string[], path: AnswerPath): Promise<{ result: SqlResult } | { error: SragError }> {
  try {
    await checkGeneratedSql(sqlEngine, sql, tables);
    const result = await sqlEngine.runReadOnlyQuery(sql, tables);
    if (path === 'hybrid' && !selectedSources(result)) {
      // Goes to the repair round like an engine error: the model can add the column.
      return { error: new SragError({ code: 'SQL_FAILED', message: `a hybrid answer reads the documents the query selects, so the query must return the "${sourceColumn}" column; it returned ${result.columns.map((column) => `"${column}"`).join(', ') || 'no column'}` }) };
    }
    return { result };
  } catch (error) {
    if (SragError.isInstance(error) && (error.code === 'SQL_REJECTED' || error.code === 'SQL_FAILED')) return { error };
    throw error;
  }
}

/** The SQL prompt's system message; `dialect` is the engine's notes (`SqlEngine.dialect`). */
export function renderSqlInstructions(prompts: PromptLibrary, tables: CatalogTable[], joins: TableLink[], dialect: string, answerPath: AnswerPathChoice = 'sql'): string {
  return renderPrompt(prompts['generate-sql'], {
    tables: [...tables.map(renderTableForSql), ...(joins.length ? [renderJoinKeys(joins)] : [])].join('\n\n'),
    dialect_notes: dialect.trimEnd(),
    reply_instructions: replyInstructions[answerPath],
  });
}
