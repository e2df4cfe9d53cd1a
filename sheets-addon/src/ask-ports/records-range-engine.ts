import type { AskEngine } from '../../../app/index.ts';
import { computeStatistics, SragError } from '../../../core/index.ts';
import { InMemorySqlEngine } from '../../../records-sql/index.ts';
import type { RecordsRangeTable } from '../custom-functions/records-range-table.ts';
import { sheetsCoverageSource } from '../custom-functions/sheets-coverage-source.ts';

/**
 * The engine =SRAG_ASK's question runs in: records-sql's `InMemorySqlEngine` over the one table
 * of the records range (DuckDB cannot run in Apps Script), the coverage its cells and `_error`
 * column give (`sheetsCoverageSource`), and the statistics of its rows. The rows are already in
 * memory, so nothing is exported: the engine holds exactly the table the question is asked of.
 */
export function recordsRangeEngine(records: RecordsRangeTable, table: string): AskEngine {
  const engine = new InMemorySqlEngine({ [table]: records.table });
  const coverage = sheetsCoverageSource(engine, records);
  return {
    dialect: engine.dialect,
    parseSelect: (sql) => engine.parseSelect(sql),
    runReadOnlyQuery: (sql, tables) => engine.runReadOnlyQuery(sql, tables),
    countCoverage: (sql, name, attributes) => coverage.countCoverage(sql, name, attributes),
    computeStatistics: async (name, schema) => {
      if (name.toLowerCase() !== table.toLowerCase()) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `the records range is the table "${table}", not "${name}"` });
      return computeStatistics(schema, records.rows);
    },
  };
}
