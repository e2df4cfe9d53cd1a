import type { DuckDBConnection } from '@duckdb/node-api';
import { recordTableSource, type RecordTable } from '../../app/index.ts';
import type { ResultCut, SqlValue } from '../../core/index.ts';
import { sqlString } from '../runtime/sql-string.ts';
import { DuckDbSqlEngine } from './duckdb-sql-engine.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { connectionTableExporter } from './sandbox/connection-table-exporter.ts';
import { readTracePlan, type TracedColumn, type TraceNarrowing, type Untraceable } from './sandbox/read-trace-plan.ts';

/** What an answer rests on, as kept when it was given: its SQL, the tables it was asked of, and its result. */
export interface TracedAnswer {
  sql: string;
  chosen: RecordTable[];
  columns: string[];
  rows: SqlValue[][];
  cut?: ResultCut;
}

/** The records a result row (or the whole answer) was computed from, at most `limit` of them. */
export interface TracedRecords {
  narrowing: TraceNarrowing;
  note?: string;
  columns: TracedColumn[];
  rows: SqlValue[][];
  /** How many records there are, of which `rows` holds the first. */
  total: number;
}

/** The engine's aggregate functions, read once per process: whether a query aggregates depends on them. */
let aggregateNames: Promise<Set<string>> | undefined;

/**
 * The records behind row `row` of `answer`'s result (or, without `row`, behind the whole answer),
 * as `readTracePlan` derives them from the answer's own SQL. The selection is that SQL rewritten,
 * so it is as untrusted: it runs in a sandbox like the question's, over exactly the answer's
 * tables, bounded in rows; the row's values reach it as literals written here. `connection` reads
 * the database (and parses); nothing of a request's text becomes SQL.
 */
export async function traceRecords(connection: DuckDBConnection, answer: TracedAnswer, { row, offset = 0, limit }: { row?: number; offset?: number; limit: number }): Promise<TracedRecords | Untraceable> {
  const serialized = JSON.parse(String((await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [answer.sql])).getRowsJS()[0]?.[0])) as { error: boolean; statements: Array<{ node: unknown }> };
  if (serialized.error || serialized.statements.length !== 1) return { untraceable: 'the query could not be parsed again' };
  aggregateNames ??= connection.runAndReadAll("SELECT DISTINCT lower(function_name) FROM duckdb_functions() WHERE function_type = 'aggregate'")
    .then((reader) => new Set(reader.getRowsJS().map((name) => String(name[0]))));
  const plan = readTracePlan(serialized, answer.chosen, await aggregateNames, answer.columns);
  if ('untraceable' in plan) return plan;
  if (plan.columns.length === 0) return { untraceable: 'the tables the query reads have no columns to show' };
  const text = JSON.stringify(plan.selection, (key, value: unknown) => (key === 'query_location' ? 0 : value));
  const selection = String((await connection.runAndReadAll('SELECT json_deserialize_sql($1::JSON)', [text])).getRowsJS()[0]?.[0]);
  const values = row === undefined ? undefined : answer.rows[row];
  const conditions = values === undefined || plan.narrowing === 'all'
    ? []
    : plan.keys.map((column, index) => keyCondition(`srag_key_${index}`, values[column] ?? null, (answer.cut?.cellsShortened ?? 0) > 0));
  const names = plan.columns.map((column) => quoteIdentifier(column.name));
  const keys = plan.columns.filter((column) => column.role !== 'value').map((column) => quoteIdentifier(column.name));
  const filtered = `SELECT ${names.join(', ')} FROM (\n${selection}\n) AS srag_trace${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
  const engine = new DuckDbSqlEngine(recordTableSource(answer.chosen, connectionTableExporter(connection)));
  const tables = answer.chosen.map((table) => table.name);
  const result = await engine.runReadOnlyQuery(
    `SELECT ${names.join(', ')}, count(*) OVER () AS srag_total FROM (${filtered}) AS srag_records ORDER BY ${(keys.length ? keys : names).join(', ')} LIMIT ${Math.max(1, Math.trunc(limit))} OFFSET ${Math.max(0, Math.trunc(offset))}`,
    tables);
  // Each row carries the count of all; a page past the last carries none, so then it is counted alone.
  const total = result.rows.length ? Number(result.rows[0]!.at(-1))
    : offset > 0 ? Number((await engine.runReadOnlyQuery(`SELECT count(*) FROM (${filtered}) AS srag_records`, tables)).rows[0]?.[0] ?? 0) : 0;
  return {
    narrowing: values === undefined ? 'all' : plan.narrowing,
    ...(plan.note && values !== undefined ? { note: plan.note } : {}),
    columns: plan.columns,
    rows: result.rows.map((cells) => cells.slice(0, -1)),
    total,
  };
}

/**
 * The condition that a key equals a result cell's value, as the result gave it: a number within
 * rounding (a DOUBLE read back as JSON), text as DuckDB writes the key as text (a DATE is
 * '2016-10-15', as the result shows it), a cell the result cut ("…") by what it kept.
 */
function keyCondition(key: string, value: SqlValue, cellsWereCut: boolean): string {
  if (value === null) return `${key} IS NULL`;
  if (typeof value === 'boolean') return `${key} = ${value}`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return `CAST(${key} AS VARCHAR) = ${sqlString(String(value))}`;
    // Within rounding even for a whole number: the key may be a DOUBLE the result read as 231 (231.00000000000003).
    return `abs(CAST(${key} AS DOUBLE) - (${value})) <= ${Math.max(1, Math.abs(value)) * 1e-9}`;
  }
  if (cellsWereCut && value.endsWith('…')) return `starts_with(CAST(${key} AS VARCHAR), ${sqlString(value.slice(0, -1))})`;
  return `CAST(${key} AS VARCHAR) = ${sqlString(value)}`;
}
