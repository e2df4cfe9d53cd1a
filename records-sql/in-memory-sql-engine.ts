import { SragError, type ParsedSelect, type SqlEngine, type SqlResult, type SqlValue } from './sql-engine-port.ts';
import { collectSelectReferences } from './parser/collect-select-references.ts';
import { parseSelectStatement } from './parser/parse-select-statement.ts';
import { asSqlFailure } from './as-sql-failure.ts';
import { readCoverageScope } from './coverage-scope.ts';
import { recordsSqlDialect } from './records-sql-dialect.ts';
import type { Relation } from './runner/relation.ts';
import { SqlQueryRunner } from './runner/sql-query-runner.ts';
import type { SqlType } from './syntax/sql-syntax.ts';
import { SqlDecimal } from './values/sql-decimal.ts';
import { parseDateText, SqlDate, type RuntimeValue } from './values/sql-runtime-value.ts';

/** The DuckDB column types records have (see `renderSqlInstructions`). */
export type RecordColumnType = 'VARCHAR' | 'DOUBLE' | 'BIGINT' | 'BOOLEAN' | 'DATE';

export interface InMemoryTable {
  columns: Array<{ name: string; type: RecordColumnType }>;
  /** One array per row, in column order; a DATE is 'YYYY-MM-DD'. */
  rows: SqlValue[][];
}

const runtimeTypes: Record<RecordColumnType, SqlType> = { VARCHAR: 'VARCHAR', DOUBLE: 'DOUBLE', BIGINT: 'INTEGER', BOOLEAN: 'BOOLEAN', DATE: 'DATE' };

/**
 * The SQL port without a database: a subset of DuckDB's SQL (what `recordsSqlDialect` tells the
 * model) parsed and evaluated in plain JavaScript over tables handed in as rows. It serves the
 * Sheets add-on, where DuckDB cannot run. The grammar admits nothing but one SELECT, and the
 * evaluator can read only the tables given to `runReadOnlyQuery`: there is no file, network or
 * catalog function to refuse, so untrusted SQL cannot reach anything else. Every query is bounded
 * (`queryLimits`: steps, memory, text length, nesting), and every failure is a `SragError`.
 */
export class InMemorySqlEngine implements SqlEngine {
  readonly dialect = recordsSqlDialect;
  private readonly relations = new Map<string, Relation>();

  constructor(tables: Record<string, InMemoryTable>) {
    for (const [name, table] of Object.entries(tables)) {
      const columns = table.columns.map((column) => ({ name: column.name.toLowerCase(), type: runtimeTypes[column.type] }));
      const rows = table.rows.map((row) => row.map((value, index) => toRuntimeValue(value, columns[index]!.type)));
      this.relations.set(name.toLowerCase(), { columns, rows });
    }
  }

  async parseSelect(sql: string): Promise<ParsedSelect> {
    return asSqlFailure(() => collectSelectReferences(parseSelectStatement(sql)));
  }

  /**
   * For coverage: what an already-checked `sql` reads of `table`, and the `_source` of the rows its
   * WHERE keeps, run here within the same bounds as any query. A WHERE that cannot run alone (it
   * names a select-list alias) leaves the rows undefined, as a selection that is not derivable does.
   */
  rowsCovered(sql: string, table: string): RowsCovered {
    const scope = asSqlFailure(() => readCoverageScope(parseSelectStatement(sql), table));
    const relation = this.relations.get(table.toLowerCase());
    if (!scope.selection || !relation) return { columns: scope.columns, filterColumns: new Set(), sources: undefined };
    try {
      const selected = new SqlQueryRunner(new Map([[table.toLowerCase(), relation]])).run(scope.selection);
      return { columns: scope.columns, filterColumns: scope.filterColumns, sources: selected.rows.map((row) => String(row[0])) };
    } catch {
      return { columns: scope.columns, filterColumns: new Set(), sources: undefined };
    }
  }

  async runReadOnlyQuery(sql: string, tables: string[]): Promise<SqlResult> {
    const visible = new Map<string, Relation>();
    for (const table of tables) {
      const relation = this.relations.get(table.toLowerCase());
      if (!relation) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `no table "${table}" was handed to the SQL engine` });
      visible.set(table.toLowerCase(), relation);
    }
    return asSqlFailure(() => {
      const relation = new SqlQueryRunner(visible).run(parseSelectStatement(sql));
      return { columns: relation.columns.map((column) => column.name), rows: relation.rows.map((row) => row.map(toSqlValue)) };
    });
  }
}

/** What coverage is counted over in this engine (see `rowsCovered`). */
export interface RowsCovered {
  /** Lower-cased names the statement reads outside its WHERE, or `'all'`. */
  columns: Set<string> | 'all';
  /** Lower-cased names the WHERE reads: counted over the whole table. */
  filterColumns: Set<string>;
  /** `_source` of each row the WHERE keeps; undefined when that cannot be derived (then count every row). */
  sources: string[] | undefined;
}

function toRuntimeValue(value: SqlValue, type: SqlType): RuntimeValue {
  if (value === null || value === undefined) return null;
  if (type === 'DATE' && typeof value === 'string') return parseDateText(value);
  return value;
}

function toSqlValue(value: RuntimeValue): SqlValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  // As node/duckdb's readSqlResult reads a DECIMAL: the number its text spells.
  if (value instanceof SqlDecimal) return Number(value.toString());
  if (value instanceof SqlDate) return value.toString();
  return value.toString();
}
