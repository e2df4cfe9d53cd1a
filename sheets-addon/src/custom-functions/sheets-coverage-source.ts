import { findColumnOutliers, type ColumnCoverage, type CoverageSource, type ValueOfDocument } from '../../../core/index.ts';
import type { InMemorySqlEngine } from '../../../records-sql/index.ts';
import { recordColumns } from '../sheets/sheet-layout.ts';
import type { RecordsRangeTable } from './records-range-table.ts';

/**
 * Coverage over a Records range, by the same rules the DuckDB store counts with: the rows the
 * query's WHERE keeps (run by the spreadsheet SQL engine) or every row, and per value what the
 * Records sheet keeps as evidence — a value in the cell is present, a blank cell is dropped when the
 * row's `_error` names its attribute and missing when it does not. A value kept while `_error`
 * names it came from parts of a document that disagree. Without an `_error` column a blank cell's
 * footing is unknown. A number far from the rest of its column is named (`findColumnOutliers`).
 */
export function sheetsCoverageSource(engine: InMemorySqlEngine, records: RecordsRangeTable): CoverageSource {
  return {
    async countCoverage(sql, table, attributes) {
      const scope = engine.rowsCovered(sql, table);
      const selected = scope.sources === undefined ? undefined : new Set(scope.sources);
      return attributes.flatMap((column): ColumnCoverage[] => {
        const lower = column.toLowerCase();
        let counted: Pick<ColumnCoverage, 'over' | 'reason'>;
        if (selected && scope.filterColumns.has(lower)) counted = { over: 'table', reason: 'filtered' };
        else if (scope.columns !== 'all' && !scope.columns.has(lower)) return [];
        else counted = selected ? { over: 'selected' } : { over: 'table', reason: 'underivable' };
        const coverage: ColumnCoverage = { column, rows: 0, present: 0, missing: 0, dropped: 0, unknown: 0, conflicting: 0, ...counted };
        const numbers: ValueOfDocument[] = [];
        records.rows.forEach((row, index) => {
          if (counted.over === 'selected' && !selected!.has(String(row[recordColumns.source]))) return;
          const named = records.issues?.[index]?.has(lower);
          coverage.rows += 1;
          if (row[column] !== null && row[column] !== undefined) {
            coverage.present += 1;
            if (typeof row[column] === 'number' && counted.reason !== 'filtered') numbers.push({ value: row[column] as number, document: String(row[recordColumns.source]) });
            if (named) coverage.conflicting += 1;
          } else if (!records.issues) {
            coverage.unknown += 1;
          } else if (named) {
            coverage.dropped += 1;
            coverage.droppedExample ??= String(row[recordColumns.source]);
          } else {
            coverage.missing += 1;
          }
        });
        // The range is in memory already: its ends are found by sorting, as DuckDB's top-k aggregates would.
        numbers.sort((left, right) => left.value - right.value);
        const outliers = findColumnOutliers({ count: numbers.length, lowest: numbers.slice(0, 3), highest: numbers.slice(-3).reverse() }, column);
        if (outliers.length) coverage.outliers = outliers;
        return [coverage];
      });
    },
  };
}
