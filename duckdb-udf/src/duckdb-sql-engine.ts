import { DuckDBInstance } from './duckdb-node-api.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { join } from 'node:path';
import { firstLine, SqlRejectedError, SragError, type ColumnCoverage, type CoverageSource, type ParsedSelect, type SqlEngine, type SqlResult } from '../../core/index.ts';
import { countColumnCoverage, coverageEvidenceTable } from './sandbox/count-column-coverage.ts';
import { readCoveragePlan } from './sandbox/read-coverage-plan.ts';
import { duckDbSqlDialect } from './duckdb-sql-dialect.ts';
import { connectionTableSource } from './sandbox/connection-table-source.ts';
import { openSandbox, type Sandbox, type SandboxTable } from './sandbox/open-sandbox.ts';
import { createPrivateDirectory } from './sandbox/private-directory.ts';
import { readBoundedResult } from './sandbox/read-bounded-result.ts';
import { readSelectReferences, type SelectReferences } from './sandbox/read-select-references.ts';
import { sandboxLimits, type SandboxLimits } from './sandbox/sandbox-limits.ts';
import type { SandboxTableSource } from './sandbox/sandbox-table-source.ts';
import type { CountedColumn } from './sandbox/count-column-coverage.ts';

export { quoteIdentifier } from './quote-identifier.ts';

/** One parser per thread: `json_serialize_sql` holds no state, and an engine is made per `srag_ask` call. */
let parserConnection: Promise<DuckDBConnection> | undefined;

/**
 * The SQL port over DuckDB. Parsing uses DuckDB's own parser (`json_serialize_sql`, which also
 * refuses every statement that is not a SELECT). Each query runs in a sandbox of its own: a fresh
 * in-memory DuckDB with bounded memory, threads, time and result size, no external access beyond
 * the files that carry its tables, and a locked configuration (`openSandbox`). The tables reach it
 * without passing through JavaScript: the source has DuckDB write the columns the statement can
 * read to Parquet in a private temporary directory, removed when the query ends. So a query over
 * a million-row table costs a columnar export of the columns it names, not a copy of every row.
 */
export class DuckDbSqlEngine implements SqlEngine, CoverageSource {
  readonly dialect = duckDbSqlDialect;
  private readonly source: SandboxTableSource;
  private queue: Promise<unknown> = Promise.resolve();

  /** `source`: a connection to the database that holds the tables, or another way to export them. */
  constructor(source: DuckDBConnection | SandboxTableSource, private readonly limits: SandboxLimits = sandboxLimits) {
    this.source = 'exportTable' in source ? source : connectionTableSource(source);
  }

  async parseSelect(sql: string): Promise<ParsedSelect> {
    const { tables, tableFunctions, functions } = await this.readReferences(sql);
    return { tables, tableFunctions, functions };
  }

  /**
   * Runs an already-checked SELECT over `tables`. One query at a time per engine: each sandbox
   * may use `limits.memoryMegabytes`, and several at once would multiply that.
   */
  runReadOnlyQuery(sql: string, tables: string[]): Promise<SqlResult> {
    const next = this.queue.then(() => this.runInSandbox(sql, tables));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runInSandbox(sql: string, tables: string[]): Promise<SqlResult> {
    const { columns } = await this.readReferences(sql);
    try {
      return await this.runWithColumns(sql, tables, columns);
    } catch (error) {
      // The columns were chosen from the statement; a binder error may name a column that was left
      // out (or ask "did you mean …" among too few). Run again over every column, so the error
      // the repair round sees is the one the whole table gives.
      if (columns !== 'all' && SragError.isInstance(error) && /^Binder Error/.test(error.message)) return this.runWithColumns(sql, tables, 'all');
      throw error;
    }
  }

  /**
   * Runs `read` (trusted code of srag's own, such as `queryColumnStatistics`) over `columns` of
   * `table` in a sandbox like the one generated SQL gets, for sources whose database this thread
   * cannot query itself (the bridge worker of `srag_ask`).
   */
  readTable<T>(table: string, columns: string[], read: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const wanted = new Set(columns.map((column) => column.toLowerCase()));
    const next = this.queue.then(() => this.withSandbox([table], wanted, (sandbox) => read(sandbox.connection)));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Coverage of the columns `sql` reads (see `CoverageSource`), counted by DuckDB in a sandbox like
   * the query's own: the record table's `_source` and the columns the WHERE reads, and this table's
   * evidence (document, attribute, status) for the columns counted. The WHERE is untrusted like the
   * rest of the statement, so it runs only there. When the selection fails to run on its own (it
   * names a select-list alias, say), every row is counted instead, and the coverage says so.
   */
  countCoverage(sql: string, table: string, attributes: readonly string[]): Promise<ColumnCoverage[]> {
    const next = this.queue.then(async () => {
      if (!this.source.exportEvidence) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `no evidence is kept for "${table}"` });
      const plan = readCoveragePlan(await this.serialize(sql), table);
      const selection = plan.selection === undefined ? undefined : await this.deserialize(plan.selection).catch(() => undefined);
      const count = (derived: boolean) => {
        const columns = countedColumns(attributes, plan.columns, derived ? plan.filterColumns : undefined);
        if (columns.length === 0) return Promise.resolve([]);
        // The columns counted too: their ends tell the values far from the rest.
        const wanted = new Set(['_source', ...(derived ? plan.filterColumns : []), ...columns.map((column) => column.column.toLowerCase())]);
        return this.withSandbox([table], wanted, (sandbox) => this.bounded(sandbox, () => countColumnCoverage(sandbox.connection, table, derived ? selection : undefined, columns)), async (directory) => {
          const file = join(directory, 'evidence.parquet');
          await this.source.exportEvidence!(table, columns.map((column) => column.column), file);
          return coverageEvidenceTable(file);
        });
      };
      if (selection === undefined) return count(false);
      try {
        return await count(true);
      } catch (error) {
        if (SragError.isInstance(error) && error.code === 'SQL_FAILED') return count(false);
        throw error;
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs `work` with the sandbox's connection interrupted after the time limit. */
  private async bounded<T>(sandbox: Sandbox, work: () => Promise<T>): Promise<T> {
    const timer = setTimeout(() => sandbox.connection.interrupt(), this.limits.timeoutMilliseconds);
    try {
      return await work();
    } catch (error) {
      throw this.describeFailure(error, '');
    } finally {
      clearTimeout(timer);
    }
  }

  private runWithColumns(sql: string, tables: string[], wanted: Set<string> | 'all'): Promise<SqlResult> {
    return this.withSandbox(tables, wanted, async (sandbox) => {
      const timer = setTimeout(() => sandbox.connection.interrupt(), this.limits.timeoutMilliseconds);
      try {
        return await readBoundedResult(sandbox.connection, sql, this.limits);
      } catch (error) {
        throw this.describeFailure(error, sql);
      } finally {
        clearTimeout(timer);
      }
    });
  }

  private async withSandbox<T>(
    tables: string[], wanted: Set<string> | 'all', work: (sandbox: Sandbox) => Promise<T>,
    /** Tables of srag's own to add, written into the private directory (the evidence behind coverage). */
    extraTables?: (directory: string) => Promise<SandboxTable>,
  ): Promise<T> {
    const directory = createPrivateDirectory('sandbox');
    try {
      const sandboxTables: SandboxTable[] = extraTables ? [await extraTables(directory.path)] : [];
      for (const [index, table] of tables.entries()) {
        const description = await this.source.describeTable(table);
        const aliases = description.aliases ?? [];
        const needed = (name: string) => wanted === 'all' || wanted.has(name.toLowerCase());
        let columns = description.columns.filter((column) => needed(column.name) || aliases.some((alias) => alias.of === column.name && needed(alias.name)));
        // A count(*) names no column; one column carries the row count.
        if (columns.length === 0) columns = description.columns.slice(0, 1);
        const file = join(directory.path, `table-${index}.parquet`);
        await this.source.exportTable(table, columns.map((column) => column.name), file);
        const kept = new Set(columns.map((column) => column.name));
        sandboxTables.push({ name: table, file, columns, aliases: aliases.filter((alias) => kept.has(alias.of)) });
      }
      const sandbox = await openSandbox(sandboxTables, this.limits);
      try {
        return await work(sandbox);
      } finally {
        sandbox.close();
      }
    } finally {
      directory.remove();
    }
  }

  private describeFailure(error: unknown, sql: string): SragError {
    if (SragError.isInstance(error)) return error;
    const message = firstLine(error instanceof Error ? error.message : String(error));
    if (/^INTERRUPT Error/i.test(message)) {
      return new SragError({ code: 'SQL_FAILED', message: `the query ran longer than ${this.limits.timeoutMilliseconds / 1000} s and was stopped`, cause: error });
    }
    if (/^Out of Memory Error/i.test(message)) {
      return new SragError({
        code: 'SQL_FAILED',
        message: `the query needed more than ${this.limits.memoryMegabytes} MB of memory and was stopped; aggregate in SQL or return fewer rows`,
        cause: error,
      });
    }
    if (/^Invalid Input Error: Cannot change configuration option/i.test(message)) {
      return new SqlRejectedError({ sql, reason: 'it changes a setting' });
    }
    return new SragError({ code: 'SQL_FAILED', message, cause: error });
  }

  private async readReferences(sql: string): Promise<SelectReferences> {
    return readSelectReferences((await this.serialize(sql)).statements[0]);
  }

  /** DuckDB's parse of `sql` (`json_serialize_sql`): exactly one statement, a SELECT, or an error. */
  private async serialize(sql: string): Promise<{ statements: Array<{ node: unknown }> }> {
    const connection = await parser();
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
    return { statements: statements as Array<{ node: unknown }> };
  }

  /** A serialized statement as SQL text again (`json_deserialize_sql`). */
  private async deserialize(serialized: unknown): Promise<string> {
    const connection = await parser();
    // Positions are not needed to print SQL; an unknown one is 2^64 - 1, which JSON numbers in JavaScript cannot carry back.
    const text = JSON.stringify(serialized, (key, value: unknown) => (key === 'query_location' ? 0 : value));
    const reader = await connection.runAndReadAll('SELECT json_deserialize_sql($1::JSON)', [text]);
    return String(reader.getRowsJS()[0]?.[0]);
  }
}

function parser(): Promise<DuckDBConnection> {
  parserConnection ??= DuckDBInstance.create(':memory:', { enable_external_access: 'false' }).then((instance) => instance.connect());
  return parserConnection;
}

/**
 * The attributes coverage is counted for, with what it is counted over: with a derived selection,
 * columns the WHERE filters on over the table and the rest over the selection; without one, all
 * over the table.
 */
function countedColumns(attributes: readonly string[], read: Set<string> | 'all', filterColumns: Set<string> | undefined): CountedColumn[] {
  return attributes.flatMap((column): CountedColumn[] => {
    const lower = column.toLowerCase();
    if (filterColumns?.has(lower)) return [{ column, over: 'table', reason: 'filtered' }];
    if (read !== 'all' && !read.has(lower)) return [];
    return [filterColumns ? { column, over: 'selected' } : { column, over: 'table', reason: 'underivable' }];
  });
}
