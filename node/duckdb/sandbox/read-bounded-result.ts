import { DuckDBTypeId, JsonDuckDBValueConverter, StatementType } from '../duckdb-node-api.ts';
import type { DuckDBArrayType, DuckDBConnection, DuckDBListType, DuckDBMapType, DuckDBStructType, DuckDBType } from '@duckdb/node-api';
import { SqlRejectedError, type SqlResult, type SqlValue } from '../../../core/index.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import { sqlString } from '../../runtime/sql-string.ts';
import { toSqlValue } from '../read-sql-result.ts';
import type { SandboxLimits } from './sandbox-limits.ts';

/** Values of these types have a bounded size; every other column is turned into text and cut. */
const boundedTypes = new Set<DuckDBTypeId>([
  DuckDBTypeId.BOOLEAN, DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER, DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER, DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT, DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE, DuckDBTypeId.DECIMAL, DuckDBTypeId.DATE,
  DuckDBTypeId.TIME, DuckDBTypeId.TIME_TZ, DuckDBTypeId.TIME_NS, DuckDBTypeId.TIMESTAMP, DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS, DuckDBTypeId.TIMESTAMP_NS, DuckDBTypeId.TIMESTAMP_TZ, DuckDBTypeId.INTERVAL,
  DuckDBTypeId.UUID, DuckDBTypeId.ENUM, DuckDBTypeId.SQLNULL,
]);
const nestedTypes = new Set<DuckDBTypeId>([DuckDBTypeId.LIST, DuckDBTypeId.STRUCT, DuckDBTypeId.MAP, DuckDBTypeId.ARRAY, DuckDBTypeId.UNION]);

/** DuckDB hands results over in chunks of up to 2,048 rows; one chunk's text stays under this. */
const chunkCharacterBudget = 64_000_000;
const rowsPerChunk = 2048;

/**
 * Runs one checked SELECT and reads at most `limits.maximumRows` rows and
 * `limits.maximumResultCharacters` characters of it, cutting each text cell in DuckDB before it
 * reaches JavaScript (a 300 MB string is computed by DuckDB but never copied out). The statement
 * is wrapped, not rewritten: `SELECT <each column, cut> FROM (<sql>) LIMIT n`; projection and
 * LIMIT keep the order an ORDER BY gave the inner query. Nested values come back as JSON text.
 * The result's `cut` says what was left out.
 */
export async function readBoundedResult(connection: DuckDBConnection, sql: string, limits: SandboxLimits): Promise<SqlResult> {
  // Preparing binds the statement: its columns are known before anything runs, and a statement
  // that is not one query (a second statement smuggled in) fails here.
  const inner = await connection.prepare(sql);
  if (inner.statementType !== StatementType.SELECT) {
    inner.destroySync();
    throw new SqlRejectedError({ sql, reason: 'only a SELECT runs in the sandbox' });
  }
  const columns = Array.from({ length: inner.columnCount }, (_, index) => inner.columnName(index));
  const types = Array.from({ length: inner.columnCount }, (_, index) => inner.columnType(index));
  inner.destroySync();
  const textColumns = types.filter((type) => !boundedTypes.has(type.typeId)).length;
  const cellCharacters = Math.min(limits.maximumCellCharacters, Math.max(100, Math.floor(chunkCharacterBudget / rowsPerChunk / Math.max(1, textColumns))));
  const positional = columns.map((_, index) => `"c${index}"`);
  const selected = types.map((type, index) => `${cutExpression(positional[index]!, type, cellCharacters + 1)} AS ${quoteIdentifier(columns[index]!)}`);
  // The statement sits on lines of its own, so a trailing `-- comment` cannot swallow the wrapper.
  const wrapped = `SELECT ${selected.join(', ') || '*'} FROM (\n${sql}\n) AS srag_result(${positional.join(', ')}) LIMIT ${limits.maximumRows + 1}`;
  const result = await connection.stream(wrapped);
  const outputTypes = result.columnTypes().map((type) => type.toString());
  const rows: SqlValue[][] = [];
  let characters = 0;
  let cellsShortened = 0;
  let rowsOmitted = false;
  reading: for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (const values of chunk.convertRows(JsonDuckDBValueConverter)) {
      if (rows.length === limits.maximumRows) {
        rowsOmitted = true;
        break reading;
      }
      const row = values.map((value, index) => {
        const cell = toSqlValue(value, outputTypes[index] ?? '');
        if (typeof cell !== 'string') return cell;
        if (cell.length <= cellCharacters) return cell;
        cellsShortened += 1;
        return `${cell.slice(0, cellCharacters)}…`;
      });
      for (const cell of row) characters += typeof cell === 'string' ? cell.length : 8;
      if (characters > limits.maximumResultCharacters) {
        rowsOmitted = true;
        break reading;
      }
      rows.push(row);
    }
  }
  const cut = rowsOmitted || cellsShortened > 0
    ? { cut: { rowsOmitted, cellsShortened, maximumRows: limits.maximumRows, maximumCellCharacters: cellCharacters } }
    : {};
  return { columns, rows, ...cut };
}

function cutExpression(column: string, type: DuckDBType, characters: number): string {
  if (boundedTypes.has(type.typeId)) return column;
  if (type.typeId === DuckDBTypeId.VARCHAR) return `left(${column}, ${characters})`;
  if (nestedTypes.has(type.typeId)) return `left(CAST(to_json(${boundedValue(column, type, characters, 0) ?? column}) AS VARCHAR), ${characters})`;
  return `left(CAST(${column} AS VARCHAR), ${characters})`;
}

/**
 * SQL for `value` (of `type`) cut in DuckDB so that the first `characters` of its JSON stay as they
 * are, and what is past them is never built: each list, array and map keeps the elements those
 * characters can show (an element takes two at least, with its comma), each text inside the first
 * `characters`. `SELECT list(range(0, 100000000))` then turns 5,001 numbers into JSON, not a
 * hundred million. Undefined when nothing in the type needs it. A value nested in several levels
 * of lists keeps up to that many elements per level, a product the sandbox's process bounds; JSON
 * values inside and texts of other types (BLOB, BIT) stay whole, as do a map's keys (cut, two
 * could become one).
 */
function boundedValue(value: string, type: DuckDBType, characters: number, depth: number): string | undefined {
  const elements = Math.floor(characters / 2) + 1;
  const element = `element${depth}`;
  if (type.typeId === DuckDBTypeId.LIST || type.typeId === DuckDBTypeId.ARRAY) {
    const inner = boundedValue(element, (type as DuckDBListType | DuckDBArrayType).valueType, characters, depth + 1);
    const sliced = `list_slice(${value}, 1, ${elements})`;
    return inner === undefined ? sliced : `list_transform(${sliced}, lambda ${element}: ${inner})`;
  }
  if (type.typeId === DuckDBTypeId.MAP) {
    const inner = boundedValue(`${element}.value`, (type as DuckDBMapType).valueType, characters, depth + 1);
    const entry = inner === undefined ? element : `struct_pack(key := ${element}.key, value := ${inner})`;
    return `CASE WHEN ${value} IS NULL THEN NULL ELSE map_from_entries(list_transform(list_slice(map_entries(${value}), 1, ${elements}), lambda ${element}: ${entry})) END`;
  }
  if (type.typeId === DuckDBTypeId.STRUCT) {
    const { entryNames, entryTypes } = type as DuckDBStructType;
    // An unnamed struct (`(1, 2)`, `row(…)`) has empty names: its fields are read by position and only `row` makes one.
    const unnamed = entryNames.every((name) => name === '');
    const field = (index: number) => `struct_extract(${value}, ${unnamed ? index + 1 : sqlString(entryNames[index]!)})`;
    const fields = entryTypes.map((entryType, index) => boundedValue(field(index), entryType, characters, depth + 1));
    if (fields.every((cutField) => cutField === undefined)) return undefined;
    const cut = fields.map((cutField, index) => cutField ?? field(index));
    const rebuilt = unnamed
      ? `row(${cut.join(', ')})`
      : `struct_pack(${cut.map((cutField, index) => `${quoteIdentifier(entryNames[index]!)} := ${cutField}`).join(', ')})`;
    return `CASE WHEN ${value} IS NULL THEN NULL ELSE ${rebuilt} END`;
  }
  if (type.typeId === DuckDBTypeId.VARCHAR && type.alias !== 'JSON') return `left(${value}, ${characters})`;
  return undefined;
}
