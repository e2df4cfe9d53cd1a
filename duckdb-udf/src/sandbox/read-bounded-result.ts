import { DuckDBTypeId, JsonDuckDBValueConverter, StatementType } from '../duckdb-node-api.ts';
import type { DuckDBConnection, DuckDBType } from '@duckdb/node-api';
import { SqlRejectedError, type SqlResult, type SqlValue } from '../../../core/index.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
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
  if (nestedTypes.has(type.typeId)) return `left(CAST(to_json(${column}) AS VARCHAR), ${characters})`;
  return `left(CAST(${column} AS VARCHAR), ${characters})`;
}
