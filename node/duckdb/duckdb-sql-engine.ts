import { DuckDBInstance } from './duckdb-node-api.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import pLimit, { type LimitFunction } from 'p-limit';
import { join } from 'node:path';
import type { AskEngine } from '../../app/index.ts';
import { firstLine, SqlRejectedError, SragError, type ColumnCoverage, type ColumnStatistics, type ParsedSelect, type RecordSchema, type SqlResult, type SragErrorCode } from '../../core/index.ts';
import { coverageEvidenceTable } from './sandbox/count-column-coverage.ts';
import { readCoveragePlan } from './sandbox/read-coverage-plan.ts';
import { duckDbSqlDialect } from './duckdb-sql-dialect.ts';
import { connectionTableSource } from './sandbox/connection-table-source.ts';
import { queryColumnStatistics } from './store/query-column-statistics.ts';
import { openSandbox, type Sandbox, type SandboxTable } from './sandbox/open-sandbox.ts';
import { createPrivateDirectory } from './sandbox/private-directory.ts';
import { runInSandboxProcess } from './sandbox/run-in-sandbox-process.ts';
import { readSelectReferences, type SelectReferences } from './sandbox/read-select-references.ts';
import { sandboxLimits, type SandboxLimits } from './sandbox/sandbox-limits.ts';
import type { SandboxWork } from './sandbox/sandbox-process-protocol.ts';
import type { SandboxTableSource } from './sandbox/sandbox-table-source.ts';
import type { CountedColumn } from './sandbox/count-column-coverage.ts';


let nextEngine = 1;

/** One parser per thread: `json_serialize_sql` holds no state, and an engine is made per `srag_ask` call. */
let parserConnection: Promise<DuckDBConnection> | undefined;

/**
 * The SQL port over DuckDB. Parsing uses DuckDB's own parser (`json_serialize_sql`, which also
 * refuses every statement that is not a SELECT). Each query runs in a sandbox: an in-memory
 * DuckDB with bounded memory, threads, time and result size, no external access beyond the files
 * that carry its tables, and a locked configuration (`openReusableSandbox`; kept for this engine's
 * next query, never given another's), in a process of its own that is ended past the time limit
 * or the process memory limit (`runInSandboxProcess`):
 * DuckDB's own bounds miss what it allocates outside its memory limit and any step that does not
 * look at an interrupt. The tables reach it without passing through JavaScript: the source has
 * DuckDB write the columns the statement can read to Parquet in a private temporary directory,
 * removed when the query ends. So a query over a million-row table costs a columnar export of the
 * columns it names, not a copy of every row.
 */
export class DuckDbSqlEngine implements AskEngine {
  readonly dialect = duckDbSqlDialect;
  private readonly source: SandboxTableSource;
  /** Sandboxes open at once (`limits.concurrentQueries`): each may use its memory bounds, so they are few. */
  private readonly slots: LimitFunction;
  /** This engine's name to the sandbox processes, which keep a DuckDB for one asker's queries only (see `runInSandboxProcess`). */
  private readonly owner = `engine-${nextEngine++}`;

  /** `source`: a connection to the database that holds the tables, or another way to export them. */
  constructor(source: DuckDBConnection | SandboxTableSource, private readonly limits: SandboxLimits = sandboxLimits) {
    this.source = 'exportTable' in source ? source : connectionTableSource(source);
    this.slots = pLimit(limits.concurrentQueries);
  }

  async parseSelect(sql: string): Promise<ParsedSelect> {
    const { tables, tableFunctions, functions } = await this.readReferences(sql);
    return { tables, tableFunctions, functions };
  }

  /**
   * Runs an already-checked SELECT over `tables`. At most `limits.concurrentQueries` at a time per
   * engine (one, unless a server asks for more): each sandbox may use its memory bounds, and
   * several at once multiply them.
   */
  runReadOnlyQuery(sql: string, tables: string[]): Promise<SqlResult> {
    return this.slots(() => this.runInSandbox(sql, tables));
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
    return this.slots(() => this.withSandbox([table], wanted, (sandbox) => read(sandbox.connection)));
  }

  /** The Appendix-D statistics of `table`, computed by DuckDB in a sandbox over the schema's columns (a table whose statistics are not kept). */
  computeStatistics(table: string, schema: RecordSchema): Promise<ColumnStatistics[]> {
    return this.readTable(table, schema.attributes.map((attribute) => attribute.name), (connection) => queryColumnStatistics(connection, table, schema));
  }

  /**
   * Coverage of the columns `sql` reads (see `CoverageSource`), counted by DuckDB in a sandbox like
   * the query's own: the record table's `_source` and the columns the WHERE reads, and this table's
   * evidence (document, attribute, status) for the columns counted. The WHERE is untrusted like the
   * rest of the statement, so it runs only there. When the selection fails to run on its own (it
   * names a select-list alias, say), every row is counted instead, and the coverage says so.
   */
  countCoverage(sql: string, table: string, attributes: readonly string[]): Promise<ColumnCoverage[]> {
    return this.slots(async () => {
      if (!this.source.exportEvidence) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `no evidence is kept for "${table}"` });
      const plan = readCoveragePlan(await this.serialize(sql), table);
      const selection = plan.selection === undefined ? undefined : await this.deserialize(plan.selection).catch(() => undefined);
      const count = (derived: boolean): Promise<ColumnCoverage[]> => {
        const columns = countedColumns(attributes, plan.columns, derived ? plan.filterColumns : undefined);
        if (columns.length === 0) return Promise.resolve([]);
        // The columns counted too: their ends tell the values far from the rest.
        const wanted = new Set(['_source', ...(derived ? plan.filterColumns : []), ...columns.map((column) => column.column.toLowerCase())]);
        const work = { kind: 'coverage' as const, table, selection: derived ? selection : undefined, columns };
        return this.runInProcess([table], wanted, work, '', async (directory) => {
          const file = join(directory, 'evidence.parquet');
          await this.source.exportEvidence!(table, columns.map((column) => column.column), file);
          return coverageEvidenceTable(file);
        }) as Promise<ColumnCoverage[]>;
      };
      if (selection === undefined) return count(false);
      try {
        return await count(true);
      } catch (error) {
        if (SragError.isInstance(error) && error.code === 'SQL_FAILED') return count(false);
        throw error;
      }
    });
  }

  private async runWithColumns(sql: string, tables: string[], wanted: Set<string> | 'all'): Promise<SqlResult> {
    return await this.runInProcess(tables, wanted, { kind: 'query', sql }, sql) as SqlResult;
  }

  /**
   * Runs untrusted work in a sandbox process (`runInSandboxProcess`) over `tables` (their `wanted`
   * columns, exported into the process's directory), which is ended past the time limit or the
   * process memory limit whatever DuckDB is doing; any failure as one `SragError`.
   */
  private async runInProcess(
    tables: string[], wanted: Set<string> | 'all', work: SandboxWork, sql: string, extraTable?: (directory: string) => Promise<SandboxTable>,
  ): Promise<SqlResult | ColumnCoverage[]> {
    const outcome = await runInSandboxProcess(this.limits, this.owner, (directory) => this.exportTables(directory, tables, wanted, extraTable), work);
    if ('result' in outcome) return outcome.result;
    if ('error' in outcome) {
      const { message, code, hint, reason } = outcome.error;
      if (reason !== undefined) throw new SqlRejectedError({ sql, reason });
      throw this.describeFailure(code ? new SragError({ code: code as SragErrorCode, message, hint }) : new Error(message), sql);
    }
    if (outcome.ended === 'time') throw new SragError({ code: 'SQL_FAILED', message: this.timeLimitMessage() });
    if (outcome.ended === 'memory') throw new SragError({ code: 'SQL_FAILED', message: memoryLimitMessage(this.limits.processMemoryMegabytes) });
    throw new SragError({ code: 'SQL_FAILED', message: `the sandbox process that ran the query stopped (${outcome.detail})` });
  }

  /** Runs `work` over the sandbox in this process: for srag's own trusted queries (`readTable`). */
  private withSandbox<T>(tables: string[], wanted: Set<string> | 'all', work: (sandbox: Sandbox) => Promise<T>): Promise<T> {
    return this.withExports(tables, wanted, async (sandboxTables) => {
      const sandbox = await openSandbox(sandboxTables, this.limits);
      try {
        return await work(sandbox);
      } finally {
        sandbox.close();
      }
    });
  }

  /** Exports `tables` (their `wanted` columns) into a private directory for a sandbox, removed when `work` ends. */
  private async withExports<T>(tables: string[], wanted: Set<string> | 'all', work: (tables: SandboxTable[]) => Promise<T>): Promise<T> {
    const directory = createPrivateDirectory('sandbox');
    try {
      return await work(await this.exportTables(directory.path, tables, wanted));
    } finally {
      directory.remove();
    }
  }

  /**
   * Writes `tables` (their `wanted` columns) into `directory` as Parquet files, and what a sandbox
   * shows of them; `extraTable` adds one of srag's own (the evidence behind coverage), first.
   */
  private async exportTables(
    directory: string, tables: string[], wanted: Set<string> | 'all', extraTable?: (directory: string) => Promise<SandboxTable>,
  ): Promise<SandboxTable[]> {
    const sandboxTables: SandboxTable[] = extraTable ? [await extraTable(directory)] : [];
    for (const [index, table] of tables.entries()) {
      const description = await this.source.describeTable(table);
      const aliases = description.aliases ?? [];
      const needed = (name: string) => wanted === 'all' || wanted.has(name.toLowerCase());
      let columns = description.columns.filter((column) => needed(column.name) || aliases.some((alias) => alias.of === column.name && needed(alias.name)));
      // A count(*) names no column; one column carries the row count.
      if (columns.length === 0) columns = description.columns.slice(0, 1);
      const file = join(directory, `table-${index}.parquet`);
      await this.source.exportTable(table, columns.map((column) => column.name), file);
      const kept = new Set(columns.map((column) => column.name));
      sandboxTables.push({ name: table, file, columns, aliases: aliases.filter((alias) => kept.has(alias.of)) });
    }
    return sandboxTables;
  }

  private describeFailure(error: unknown, sql: string): SragError {
    if (SragError.isInstance(error)) return error;
    const message = firstLine(error instanceof Error ? error.message : String(error));
    if (/^INTERRUPT Error/i.test(message)) return new SragError({ code: 'SQL_FAILED', message: this.timeLimitMessage(), cause: error });
    if (/^Out of Memory Error/i.test(message)) return new SragError({ code: 'SQL_FAILED', message: memoryLimitMessage(this.limits.memoryMegabytes), cause: error });
    if (/^Invalid Input Error: Cannot change configuration option/i.test(message)) {
      return new SqlRejectedError({ sql, reason: 'it changes a setting' });
    }
    return new SragError({ code: 'SQL_FAILED', message, cause: error });
  }

  private timeLimitMessage(): string {
    return `the query ran longer than ${this.limits.timeoutMilliseconds / 1000} s and was stopped`;
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

function memoryLimitMessage(megabytes: number): string {
  return `the query needed more than ${megabytes} MB of memory and was stopped; aggregate in SQL or return fewer rows`;
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
