import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { SqlRejectedError, SragError, type ParsedSelect, type SqlEngine, type SqlResult } from '../../core/index.ts';
import { duckDbSqlDialect } from './duckdb-sql-dialect.ts';
import { readSqlResult } from './read-sql-result.ts';

/** A runaway generated query (a cross join of a large table with itself) is interrupted. */
const queryTimeoutMilliseconds = 30_000;

/**
 * The SQL port over DuckDB. Parsing uses DuckDB's own parser (`json_serialize_sql`, which also
 * refuses every statement that is not a SELECT); execution happens in a fresh in-memory instance
 * created with external access disabled and configuration locked, into which only the allowed
 * tables are copied: the query cannot read files, reach the network, or see any other table.
 */
export class DuckDbSqlEngine implements SqlEngine {
  readonly dialect = duckDbSqlDialect;
  private parserConnection: Promise<DuckDBConnection> | undefined;

  constructor(private readonly source: DuckDBConnection) {}

  async parseSelect(sql: string): Promise<ParsedSelect> {
    this.parserConnection ??= DuckDBInstance.create(':memory:', { enable_external_access: 'false' }).then((instance) => instance.connect());
    const connection = await this.parserConnection;
    const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
    const serialized = JSON.parse(String(reader.getRowsJS()[0]?.[0])) as { error: boolean; error_type?: string; error_message?: string; statements?: unknown[] };
    if (serialized.error) {
      if (serialized.error_type === 'not implemented') {
        throw new SqlRejectedError({ sql, reason: 'only a read-only SELECT is allowed (DuckDB parsed another kind of statement)' });
      }
      throw new SragError({ code: 'SQL_FAILED', message: `${serialized.error_type ?? 'parser'} error: ${serialized.error_message ?? 'unknown'}` });
    }
    const statements = serialized.statements ?? [];
    if (statements.length !== 1) throw new SqlRejectedError({ sql, reason: `exactly one statement is allowed, found ${statements.length}` });
    return collectReferences(statements[0]);
  }

  async runReadOnlyQuery(sql: string, tables: string[]): Promise<SqlResult> {
    const sandbox = await DuckDBInstance.create(':memory:', {
      enable_external_access: 'false',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    const connection = await sandbox.connect();
    try {
      for (const table of tables) await this.copyTable(table, connection);
      await connection.run('SET lock_configuration = true');
      const timer = setTimeout(() => connection.interrupt(), queryTimeoutMilliseconds);
      try {
        return readSqlResult(await connection.runAndReadAll(sql));
      } catch (error) {
        throw new SragError({ code: 'SQL_FAILED', message: (error as Error).message.split('\n')[0] ?? String(error), cause: error });
      } finally {
        clearTimeout(timer);
      }
    } finally {
      connection.closeSync();
      sandbox.closeSync();
    }
  }

  private async copyTable(table: string, target: DuckDBConnection): Promise<void> {
    const quoted = quoteIdentifier(table);
    const reader = await this.source.runAndReadAll(`SELECT * FROM ${quoted}`);
    const names = reader.columnNames();
    const types = reader.columnTypes();
    await target.run(`CREATE TABLE ${quoted} (${names.map((name, index) => `${quoteIdentifier(name)} ${types[index]!.toString()}`).join(', ')})`);
    const appender = await target.createAppender(table);
    for (const row of reader.getRows()) {
      row.forEach((value, index) => appender.appendValue(value, types[index]));
      appender.endRow();
    }
    appender.closeSync();
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Walk DuckDB's serialized AST for base tables (minus CTE names), table functions and functions. */
function collectReferences(statement: unknown): ParsedSelect {
  const tables = new Set<string>();
  const cteNames = new Set<string>();
  const tableFunctions = new Set<string>();
  const functions = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (record.type === 'BASE_TABLE' && typeof record.table_name === 'string') {
      // `main.hotels` is `hotels`; any other schema or catalog stays qualified and is refused.
      const schemaName = record.schema_name === 'main' && !record.catalog_name ? '' : record.schema_name;
      const qualifier = [record.catalog_name, schemaName].filter((part) => typeof part === 'string' && part).join('.');
      tables.add((qualifier ? `${qualifier}.${record.table_name}` : record.table_name).toLowerCase());
    }
    if (record.type === 'TABLE_FUNCTION') {
      const call = record.function as Record<string, unknown> | undefined;
      if (typeof call?.function_name === 'string') tableFunctions.add(call.function_name.toLowerCase());
    }
    if (record.class === 'FUNCTION' && typeof record.function_name === 'string') functions.add(record.function_name.toLowerCase());
    const cteMap = (record.cte_map as { map?: Array<{ key: string }> } | undefined)?.map;
    if (Array.isArray(cteMap)) for (const entry of cteMap) cteNames.add(String(entry.key).toLowerCase());
    for (const value of Object.values(record)) visit(value);
  };
  visit(statement);
  // A TABLE_FUNCTION's call is also a FUNCTION node; it is reported once, as a table function.
  for (const name of tableFunctions) functions.delete(name);
  return { tables: [...tables].filter((table) => !cteNames.has(table)), tableFunctions: [...tableFunctions], functions: [...functions] };
}
