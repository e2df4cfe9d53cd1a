import { ask } from '../../../app/index.ts';
import { describeCoverage, SragError, tableNameForSchema, type AttributeDefinition, type ColumnCoverage } from '../../../core/index.ts';
import { createRequestLoop } from '../apps-script/create-request-loop.ts';
import { readSettings, requireModelSettings } from '../apps-script/settings.ts';
import { recordsRangeEngine } from '../ask-ports/records-range-engine.ts';
import { sheetsAskPorts } from '../ask-ports/sheets-ask-ports.ts';
import { createModelClient } from '../model/create-model-client.ts';
import { loadPromptLibrary } from '../model/load-prompt-library.ts';
import { readSchemaSheet, schemaTitle } from '../sheets/read-schema-sheet.ts';
import { answerCells, type Cell } from './answer-cells.ts';
import { cellMessage } from './cell-message.ts';
import { customFunctionBudgetMilliseconds } from './custom-function-budget.ts';
import { pinnedAnswer } from './pinned-answer.ts';
import { createPinnedQueries, type PinnedQueryIdentity } from './pinned-queries.ts';
import { recordsRangeTable } from './records-range-table.ts';
import { timeLimitOr } from './srag-extract.ts';

/**
 * =SRAG_ASK(question, records_range, [with_query]): the model writes one query, code runs it over
 * the records (the model never does the arithmetic), and the cell gets the result: a single value,
 * or a small table with a header row that spills. The query it ran sits in the next column, so an
 * analyst can read and check it without leaving the sheet (a custom function cannot write a note);
 * pass FALSE as with_query for the bare value, e.g. to use it in another formula.
 *
 * The question goes through srag's one ask pipeline (app's `ask`, as `srag ask` and `srag_ask`
 * do) over the Sheets ports (ask-ports/): the records range is the one table, answered from SQL.
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
    const engine = recordsRangeEngine(records, table);
    const note = (coverage: ColumnCoverage[] | undefined) => (showQuery ? describeCoverage(coverage, { title, whereToLook: () => 'see the _error column', whereToCheck: (_, document) => `see the row of ${document}` }) : undefined);
    const pinnedQueries = createPinnedQueries(PropertiesService.getDocumentProperties());
    const identity: PinnedQueryIdentity = { question: questionText, table, schema: records.schema, model: readSettings().model };
    const pinnedSql = pinnedQueries.get(identity);
    const pinned = pinnedSql === undefined ? undefined : pinnedAnswer(engine, pinnedSql, table, records.schema.attributes.map((attribute) => attribute.name));
    if (pinned) return answerCells(pinned.result.columns, pinned.result.rows, showQuery ? pinnedSql : undefined, note(pinned.coverage));

    const settings = requireModelSettings('custom function');
    secrets = [settings.apiKey];
    const activeLoop = createRequestLoop({ budgetMilliseconds: customFunctionBudgetMilliseconds, maxBatchSize: 2 });
    loop = activeLoop;
    const client = createModelClient(settings, activeLoop, { maxConcurrency: 2, retry: { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 5_000 }, keepRepliesLonger: true });
    const ports = sheetsAskPorts({ client, prompts: loadPromptLibrary(), model: settings.model, records, table, engine });
    const result = activeLoop.run(() => ask(ports, questionText, { withAnswer: false }), 'SRAG_ASK');
    pinnedQueries.pin(identity, result.sql);
    return answerCells(result.columns, result.rows, showQuery ? result.sql : undefined, note(result.coverage));
  } catch (error) {
    return [[cellMessage(timeLimitOr(error, loop), secrets)]];
  }
}

/** Attribute types and descriptions from the Schema sheet, when there is a readable one. */
function knownAttributes(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Map<string, AttributeDefinition> {
  try {
    return new Map(readSchemaSheet(spreadsheet).attributes.map((attribute) => [attribute.name.toLowerCase(), attribute]));
  } catch {
    return new Map();
  }
}
