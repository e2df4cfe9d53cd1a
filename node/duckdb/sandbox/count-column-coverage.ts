import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnCoverage } from '../../../core/index.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import type { SandboxTable } from './open-sandbox.ts';

/** A column to count, and over what (see `ColumnCoverage.over`). */
export type CountedColumn = Pick<ColumnCoverage, 'column' | 'over' | 'reason'>;

/** The evidence as the sandbox shows it: srag's own name, which a checked query cannot name (it may read only its record table). */
const evidenceView = 'srag_coverage_evidence';

/** The sandbox table over an evidence export (`SandboxTableSource.exportEvidence`). */
export function coverageEvidenceTable(file: string): SandboxTable {
  return {
    name: evidenceView,
    file,
    columns: [{ name: 'source', type: 'VARCHAR' }, { name: 'attribute', type: 'VARCHAR' }, { name: 'status', type: 'VARCHAR' }],
    aliases: [],
  };
}

/**
 * Counts, inside the sandbox, each column's evidence over the rows `selection` (SQL selecting
 * `"_source"` of the record table) returns, or over every row for a column counted over the table.
 * One statement, one pass: DuckDB joins the rows to their evidence and aggregates, so nothing per
 * row crosses into JavaScript. A row without evidence, or with a value no quote was asked for
 * (`unchecked`), is of unknown footing.
 */
export async function countColumnCoverage(connection: DuckDBConnection, table: string, selection: string | undefined, columns: CountedColumn[]): Promise<ColumnCoverage[]> {
  const listed = (over: ColumnCoverage['over']) => columns.filter((column) => column.over === over).map((column) => `(${quoteLiteral(column.column)})`).join(', ');
  const parts: string[] = [];
  if (columns.some((column) => column.over === 'selected')) {
    parts.push(`SELECT s."_source" AS source, c.column_name FROM (${selection}) s, (VALUES ${listed('selected')}) c(column_name)`);
  }
  if (columns.some((column) => column.over === 'table')) {
    parts.push(`SELECT t."_source" AS source, c.column_name FROM ${quoteIdentifier(table)} t, (VALUES ${listed('table')}) c(column_name)`);
  }
  const dropped = `e.status IN ('unsupported', 'invalid')`;
  const reader = await connection.runAndReadAll(`
    SELECT k.column_name, count(*),
      count(*) FILTER (WHERE e.status IN ('supported', 'conflict')),
      count(*) FILTER (WHERE e.status = 'missing'),
      count(*) FILTER (WHERE ${dropped}),
      count(*) FILTER (WHERE e.status = 'conflict'),
      min(k.source) FILTER (WHERE ${dropped})
    FROM (${parts.join(' UNION ALL ')}) k
    LEFT JOIN ${evidenceView} e ON e.source = k.source AND e.attribute = k.column_name
    GROUP BY k.column_name`);
  const counted = new Map(reader.getRowsJS().map((row) => [String(row[0]), row]));
  return columns.map(({ column, over, reason }) => {
    const row = counted.get(column);
    const [rows, present, missing, droppedCount, conflicting] = [1, 2, 3, 4, 5].map((index) => Number(row?.[index] ?? 0));
    const example = row?.[6];
    return {
      column, rows: rows!, present: present!, missing: missing!, dropped: droppedCount!,
      unknown: rows! - present! - missing! - droppedCount!, conflicting: conflicting!,
      over, ...(reason ? { reason } : {}), ...(example === null || example === undefined ? {} : { droppedExample: String(example) }),
    };
  });
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
