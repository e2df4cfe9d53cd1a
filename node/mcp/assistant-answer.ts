import { answerJson, describeCoverage, type Answer } from '../index.ts';

/** Rows an answer carries to the assistant: enough to check an answer or list a few, and no context window spent on thousands. */
export const rowsForAssistant = 100;

/**
 * An answer as the tools `ask` and `extend_schema` return it: `answerJson` (what `srag ask --json`
 * and `POST /query` return, field for field) with at most `rowsForAssistant` rows, `row_count` the
 * rows the SQL returned, and `coverage_note` the coverage in words (null when every value behind
 * the answer is there), naming the `why` call that shows a dropped value.
 */
export function assistantAnswer(answer: Answer): Record<string, unknown> {
  const onlyTable = answer.chosen.length === 1 ? { table: answer.chosen[0]!.name } : {};
  const note = describeCoverage(answer.coverage, {
    title: answer.chosen.map((table) => table.schema.title).join(', '),
    whereToLook: (column, document) => `see the tool why with ${JSON.stringify({ document: document ? fileName(document) : '<document>', attribute: column, ...onlyTable })}`,
  });
  return { ...answerJson(answer), rows: answer.rows.slice(0, rowsForAssistant), row_count: answer.rows.length, coverage_note: note ?? null };
}

/** The file name of a document's path: a unique part `why` finds it by. */
function fileName(source: string): string {
  return source.slice(Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1);
}
