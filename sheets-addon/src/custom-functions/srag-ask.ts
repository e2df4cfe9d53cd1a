import { askQuestion, checkGeneratedSql, computeStatistics, describeCoverage, SragError, type ColumnCoverage, type CoverageSource, tableNameForSchema, type AttributeDefinition, type SqlEngine, type SqlResult, type SqlValue } from '../../../core/index.ts';
import { InMemorySqlEngine } from '../../../records-sql/index.ts';
import { createRequestLoop } from '../apps-script/create-request-loop.ts';
import { readSettings, requireModelSettings } from '../apps-script/settings.ts';
import { createModelClient } from '../model/create-model-client.ts';
import { loadPromptLibrary } from '../model/load-prompt-library.ts';
import { readSchemaSheet, schemaTitle } from '../sheets/read-schema-sheet.ts';
import { settleNow } from '../runtime/settle-now.ts';
import { cellMessage } from './cell-message.ts';
import { customFunctionBudgetMilliseconds } from './custom-function-budget.ts';
import { createPinnedQueries, type PinnedQueryIdentity } from './pinned-queries.ts';
import { recordsRangeTable } from './records-range-table.ts';
import { sheetsCoverageSource } from './sheets-coverage-source.ts';
import { timeLimitOr } from './srag-extract.ts';

type Cell = string | number | boolean;

/** More rows than this are cut, with a last row saying how many were left out. */
const maximumRows = 500;

/**
 * =SRAG_ASK(question, records_range, [with_query]): the model writes one query, code runs it over
 * the records (the model never does the arithmetic), and the cell gets the result: a single value,
 * or a small table with a header row that spills. The query it ran sits in the next column, so an
 * analyst can read and check it without leaving the sheet (a custom function cannot write a note);
 * pass FALSE as with_query for the bare value, e.g. to use it in another formula.
 *
 * The query is pinned (see pinned-queries.ts): a recalculation over changed rows runs it again
 * without a model call; only when it no longer runs (or after Refresh) is the model asked.
 *
 * When a value behind the answer is missing or was dropped, the column after the query holds a
 * short note of what the answer rests on (`describeCoverage`, the words `srag ask` prints), counted
 * from the range's cells and `_error` column; when everything is present there is no such column.
 */
export function sragAsk(question: unknown, recordsRange: unknown, withQuery: unknown): Cell[][] {
  let secrets: Array<string | undefined> = [];
  let loop: ReturnType<typeof createRequestLoop> | undefined;
  const showQuery = withQuery !== false && String(withQuery).toUpperCase() !== 'FALSE';
  try {
    const questionText = String(Array.isArray(question) ? question[0]?.[0] ?? '' : question ?? '').trim();
    if (!questionText) return [['']];
    if (!Array.isArray(recordsRange)) {
      throw new SragError({ code: 'INPUT_INVALID', message: 'records_range must be a range with its header row', hint: 'e.g. =SRAG_ASK("How many hotels are in Spain?", Records!A1:R)' });
    }
    const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    const title = schemaTitle();
    const records = recordsRangeTable(recordsRange as unknown[][], knownAttributes(spreadsheet), title, spreadsheet.getSpreadsheetTimeZone());
    const table = tableNameForSchema({ title, attributes: [] });
    const sqlEngine = new InMemorySqlEngine({ [table]: records.table });
    const coverageSource = sheetsCoverageSource(sqlEngine, records);
    const note = (coverage: ColumnCoverage[] | undefined) => (showQuery ? describeCoverage(coverage, { title, whereToLook: () => 'see the _error column', whereToCheck: (_, document) => `see the row of ${document}` }) : undefined);
    const pinnedQueries = createPinnedQueries(PropertiesService.getDocumentProperties());
    const identity: PinnedQueryIdentity = { question: questionText, table, schema: records.schema, model: readSettings().model };
    const pinnedSql = pinnedQueries.get(identity);
    const pinned = pinnedSql === undefined ? undefined : runPinnedQuery(sqlEngine, pinnedSql, table);
    if (pinned) return answerCells(pinned.columns, pinned.rows, showQuery ? pinnedSql : undefined, note(countNow(coverageSource, pinnedSql!, table, records.schema.attributes.map((attribute) => attribute.name))));

    const settings = requireModelSettings('custom function');
    secrets = [settings.apiKey];
    const activeLoop = createRequestLoop({ budgetMilliseconds: customFunctionBudgetMilliseconds, maxBatchSize: 2 });
    loop = activeLoop;
    const client = createModelClient(settings, activeLoop, { maxConcurrency: 2, retry: { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 5_000 }, keepRepliesLonger: true });
    const result = activeLoop.run(() => askQuestion({
      client,
      prompts: loadPromptLibrary(),
      sqlEngine,
      tables: [{ name: table, schema: records.schema, statistics: computeStatistics(records.schema, records.rows), origin: 'extracted' }],
      question: questionText,
      model: settings.model,
      withAnswer: false,
      coverage: coverageSource,
    }), 'SRAG_ASK');
    pinnedQueries.pin(identity, result.sql);
    return answerCells(result.columns, result.rows, showQuery ? result.sql : undefined, note(result.coverage));
  } catch (error) {
    return [[cellMessage(timeLimitOr(error, loop), secrets)]];
  }
}

/**
 * The pinned query's result over the current rows, or undefined when it no longer passes the
 * check or fails to run (a column it names is gone): then the model writes a new one.
 */
function runPinnedQuery(sqlEngine: SqlEngine, sql: string, table: string): SqlResult | undefined {
  try {
    return settleNow((async () => {
      await checkGeneratedSql(sqlEngine, sql, [table]);
      return sqlEngine.runReadOnlyQuery(sql, [table]);
    })(), 'running the pinned SRAG_ASK query');
  } catch (error) {
    if (SragError.isInstance(error) && (error.code === 'SQL_REJECTED' || error.code === 'SQL_FAILED')) return undefined;
    throw error;
  }
}

/** Coverage of a pinned query, counted at once (the spreadsheet engine never waits). */
function countNow(source: CoverageSource, sql: string, table: string, attributes: string[]): ColumnCoverage[] {
  return settleNow(source.countCoverage(sql, table, attributes), 'counting the coverage of the pinned SRAG_ASK query');
}

/** Attribute types and descriptions from the Schema sheet, when there is a readable one. */
function knownAttributes(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Map<string, AttributeDefinition> {
  try {
    return new Map(readSchemaSheet(spreadsheet).attributes.map((attribute) => [attribute.name.toLowerCase(), attribute]));
  } catch {
    return new Map();
  }
}

export function answerCells(columns: string[], rows: SqlValue[][], sql: string | undefined, coverageNote?: string): Cell[][] {
  const extra = sql === undefined ? [] : coverageNote ? [sql, coverageNote] : [sql];
  const withQuery = (cells: Cell[][]) => cells.map((row, index) => [...row, ...extra.map((text) => (index === 0 ? text : ''))]);
  if (rows.length === 0) return withQuery([['(no rows)']]);
  if (rows.length === 1 && columns.length === 1) return withQuery([[cell(rows[0]![0]!)]]);
  const shown = rows.slice(0, maximumRows).map((row) => row.map(cell));
  if (rows.length > maximumRows) shown.push([`… ${rows.length - maximumRows} more rows`, ...columns.slice(1).map(() => '')]);
  return withQuery([columns, ...shown]);
}

function cell(value: SqlValue): Cell {
  return value === null ? '' : value;
}
