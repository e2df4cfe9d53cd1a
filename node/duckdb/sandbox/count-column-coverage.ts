import type { DuckDBConnection } from '@duckdb/node-api';
import { findColumnOutliers, type ColumnCoverage, type ColumnExtremes } from '../../../core/index.ts';
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
 * (`unchecked`), is of unknown footing. A second statement finds each numeric column's ends, for
 * the values far from the rest (`ColumnCoverage.outliers`); the sandbox must hold those columns.
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
  const extremes = await countExtremes(connection, table, selection, columns.filter((column) => column.reason !== 'filtered'));
  return columns.map(({ column, over, reason }) => {
    const outliers = findColumnOutliers(extremes.get(column), column);
    const row = counted.get(column);
    const [rows, present, missing, droppedCount, conflicting] = [1, 2, 3, 4, 5].map((index) => Number(row?.[index] ?? 0));
    const example = row?.[6];
    return {
      column, rows: rows!, present: present!, missing: missing!, dropped: droppedCount!,
      unknown: rows! - present! - missing! - droppedCount!, conflicting: conflicting!,
      over, ...(reason ? { reason } : {}), ...(example === null || example === undefined ? {} : { droppedExample: String(example) }),
      ...(outliers.length ? { outliers } : {}),
    };
  });
}

/** The numeric types of DuckDB, as `information_schema.columns` names them. */
const numericType = /^(?:U?(?:TINY|SMALL|BIG|HUGE)?INT(?:EGER)?|FLOAT|DOUBLE|REAL|DECIMAL)/i;

/**
 * The ends of each numeric column (`ColumnExtremes`: the three largest and smallest values with
 * their documents, and how many values there are) over the same rows as its coverage, in one
 * statement of top-k aggregates: nothing per row crosses into JavaScript. Core decides which of
 * them lie far from the rest (`findColumnOutliers`). A column read only by the WHERE is left out:
 * the answer does not rest on its values.
 */
async function countExtremes(connection: DuckDBConnection, table: string, selection: string | undefined, columns: CountedColumn[]): Promise<Map<string, ColumnExtremes>> {
  const types = await connection.runAndReadAll('SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1', [table]);
  const numeric = new Set(types.getRowsJS().filter((row) => numericType.test(String(row[1]))).map((row) => String(row[0]).toLowerCase()));
  const measured = columns.filter((column) => numeric.has(column.column.toLowerCase()));
  if (measured.length === 0) return new Map();
  const parts = measured.map(({ column, over }) => {
    const rows = over === 'selected' && selection !== undefined ? ` WHERE t."_source" IN (SELECT "_source" FROM (${selection}) s)` : '';
    return `SELECT ${quoteLiteral(column)} AS column_name, count(v), max_by({'value': v, 'document': document}, v, 3), min_by({'value': v, 'document': document}, v, 3)
      FROM (SELECT t."_source" AS document, CAST(t.${quoteIdentifier(column)} AS DOUBLE) AS v FROM ${quoteIdentifier(table)} t${rows}) WHERE v IS NOT NULL`;
  });
  const reader = await connection.runAndReadAll(parts.join(' UNION ALL '));
  const ends = (list: unknown) => ((list ?? []) as Array<{ value: number; document: unknown }>).map((entry) => ({ value: Number(entry.value), document: String(entry.document) }));
  return new Map(reader.getRowsJS().map((row) => [String(row[0]), { count: Number(row[1]), highest: ends(row[2]), lowest: ends(row[3]) }]));
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
