import type { ExtensionReport } from '../ports/table-grower.ts';
import type { Answer } from './ask.ts';
import { uniqueColumnNames } from './unique-column-names.ts';

/**
 * An answer as every machine-readable surface returns it (`srag ask --json`, `POST /query`,
 * `srag mcp`): the core result whole, so a field the question step adds reaches them all; column
 * names unique as `srag_ask`'s (`uniqueColumnNames`); joins
 * as `{table, column, otherTable, otherColumn}`; `coverage` null when absent; what growing the
 * table added and cost, when it grew.
 */
export function answerJson(answer: Answer): Record<string, unknown> {
  const { chosen: _chosen, extension, ...result } = answer;
  const joins = result.joins.map(({ table, column, otherTable, otherColumn }) => ({ table, column, otherTable, otherColumn }));
  return { ...result, columns: uniqueColumnNames(result.columns), joins, coverage: result.coverage ?? null, ...(extension ? extensionJson(extension) : {}) };
}

/**
 * What growing the table added and cost, in the words of `srag ask --extend-schema --json` and
 * `srag_ask`'s `schema_extension`: `backfill_estimate` null when there was nothing to back-fill.
 */
export function extensionJson(report: ExtensionReport): Record<string, unknown> {
  const estimate = report.estimate;
  return {
    added_attributes: report.addedAttributes.map((attribute) => attribute.name),
    schema_usage: report.schemaUsage,
    extraction_usage: report.extractionUsage,
    backfill_estimate: estimate ? {
      documents: estimate.documents, calls: estimate.calls, promptTokens: estimate.promptTokens,
      completionTokens: estimate.completionTokens, costUsd: estimate.costUsd, model: estimate.model, text: estimate.text,
    } : null,
    not_backfilled: report.notBackfilled,
  };
}
