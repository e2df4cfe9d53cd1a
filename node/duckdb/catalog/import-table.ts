import type { DuckDBConnection } from '@duckdb/node-api';
import { existsSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { firstLine, recordSchemaToJsonSchema, SragError, toSnakeCase } from '../../../core/index.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import { readFileStart } from '../../runtime/read-file-start.ts';
import { sragCommandLine } from '../../runtime/quote-shell-argument.ts';
import { queryColumnStatistics } from '../store/query-column-statistics.ts';
import { refuseReservedTableName } from '../store/refuse-reserved-table-name.ts';
import { importedTableSchema, kindOfColumnType, type ImportedColumn } from './imported-table-schema.ts';
import { refreshTableProfile } from './refresh-table-profile.ts';

export interface ImportTableOptions {
  /** The file as the user named it (kept in the catalog and shown in prompts). */
  file: string;
  /** The database path, for the commands in error hints. */
  databasePath: string;
  table?: string;
  /** Replace a table that an earlier `srag import` made. */
  replace?: boolean;
  description?: string;
}

export interface ImportedTable {
  table: string;
  rows: number;
  columns: ImportedColumn[];
  format: 'csv' | 'parquet';
}


/**
 * `srag import`: the user's own CSV or Parquet file becomes a table, read by DuckDB's own readers
 * (`read_csv` with its type sniffing, `read_parquet`) on srag's side, never by generated SQL. Column names are put in
 * snake_case (the form srag's columns have); types DuckDB detected are kept, and a type srag has no
 * kind for is kept as text. The table, its schema and statistics, the import record and the
 * catalog profile are written in one transaction: a failed import leaves nothing behind.
 */
export async function importTable(connection: DuckDBConnection, options: ImportTableOptions): Promise<ImportedTable> {
  const { file } = options;
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new SragError({ code: 'INPUT_INVALID', message: `no file ${file}`, hint: 'check the path from the current directory' });
  }
  const extension = extname(file).toLowerCase();
  const format = extension === '.parquet' ? 'parquet' : ['.csv', '.tsv'].includes(extension) ? 'csv' : undefined;
  if (!format) {
    throw new SragError({ code: 'INPUT_INVALID', message: `srag import reads .csv, .tsv and .parquet files, not ${basename(file)}`, hint: 'export the data as CSV or Parquet first' });
  }
  const table = toSnakeCase(options.table?.trim() || basename(file, extname(file)), { prefix: 't_', fallback: 'imported' });
  refuseReservedTableName(table);
  const value = async (sql: string, parameters: string[] = []) => (await connection.runAndReadAll(sql, parameters)).getRowsJS()[0]?.[0];
  const existing = await value("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND lower(table_name) = lower($1)", [table]);
  if (existing !== undefined) {
    const imported = await value('SELECT file FROM srag_imports WHERE lower(table_name) = lower($1)', [table]);
    if (imported === undefined) {
      const extracted = await value('SELECT 1 FROM srag_tables WHERE lower(table_name) = lower($1)', [table]);
      throw new SragError({
        code: 'INPUT_INVALID',
        message: `table "${existing}" already exists in ${options.databasePath}${extracted !== undefined ? ' and holds extracted records' : ' and was not made by srag import'}`,
        hint: 'import under another name, or drop it first',
        fix: { kind: 'rename-table', table, drop: String(existing) },
      });
    }
    if (!options.replace) {
      throw new SragError({
        code: 'INPUT_INVALID',
        message: `table "${existing}" already exists in ${options.databasePath} (imported from ${imported})`,
        hint: `replace it with ${sragCommandLine(['import', file, '--table', String(existing), '--replace'], options.databasePath)}, or import under another name with --table NAME`,
      });
    }
  }
  // The header is the first line and the delimiter is the one it uses: left to itself, DuckDB's
  // sniffer may skip lines or take another delimiter to make a ragged file look regular.
  const delimiter = extension === '.tsv' ? '\t' : headerDelimiter(file);
  const csvReader = (options: string) => `read_csv(${quoteLiteral(file)}, header = true, skip = 0, delim = ${quoteLiteral(delimiter)}, strict_mode = true${options})`;
  let reader = format === 'parquet' ? `read_parquet(${quoteLiteral(file)})` : csvReader('');
  const describe = async (from: string) => (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowsJS().map(([name, type]) => ({ header: String(name), type: String(type) }));
  let described: Array<{ header: string; type: string }>;
  try {
    described = await describe(reader);
    if (delimiter === ';') {
      // Where semicolons separate, a comma is often the decimal mark ("3,5"): read so when more
      // columns come out as numbers, and each of them shows a comma that can only be a decimal one.
      // "1,234" alone could be a thousand and more: such a column stays text rather than 1.234.
      const commaDecimals = csvReader(", decimal_separator = ','");
      const isFraction = (type: string) => /^(DOUBLE|FLOAT|DECIMAL)/.test(type);
      const withCommas = await describe(commaDecimals).catch(() => undefined);
      const gained = withCommas?.filter((column, index) => isFraction(column.type) && !isFraction(described[index]?.type ?? '')) ?? [];
      if (withCommas && gained.length > 0 && await everyColumnHasDecimalComma(connection, csvReader(', all_varchar = true'), gained.map((column) => column.header))) {
        [reader, described] = [commaDecimals, withCommas];
      }
    }
  } catch (error) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `cannot read ${file} as ${format === 'csv' ? 'CSV' : 'Parquet'}: ${firstLine(error instanceof Error ? error.message : String(error))}`,
      hint: format === 'csv' ? 'check that it is a CSV file with a header row (one line of column names) and one row per line' : 'check that it is a Parquet file',
      cause: error,
    });
  }
  const columns = uniqueColumnNames(described);
  const schema = importedTableSchema(table, basename(file), columns);
  const selected = columns.map((column) => {
    const keep = kindOfColumnType(column.type) !== 'string' || column.type === 'VARCHAR';
    return `${keep ? quoteIdentifier(column.header) : `CAST(${quoteIdentifier(column.header)} AS VARCHAR)`} AS ${quoteIdentifier(column.name)}`;
  });
  await connection.run('BEGIN TRANSACTION');
  try {
    if (existing !== undefined) {
      await connection.run(`DROP TABLE ${quoteIdentifier(String(existing))}`);
      for (const catalog of ['srag_tables', 'srag_imports']) await connection.run(`DELETE FROM ${catalog} WHERE lower(table_name) = lower($1)`, [table]);
    }
    try {
      await connection.run(`CREATE TABLE ${quoteIdentifier(table)} AS SELECT ${selected.join(', ')} FROM ${reader}`);
    } catch (error) {
      throw new SragError({
        code: 'INPUT_INVALID',
        message: `cannot read ${file}: ${firstLine(error instanceof Error ? error.message : String(error))}`,
        hint: 'fix the line the message names, or import a clean export of the data',
        cause: error,
      });
    }
    const statistics = await queryColumnStatistics(connection, table, schema);
    if ((statistics[0]?.rowCount ?? 0) === 0) {
      throw new SragError({ code: 'INPUT_INVALID', message: `${file} has no rows to import`, hint: 'a CSV file needs a header line and at least one row' });
    }
    await connection.run('INSERT INTO srag_tables (table_name, title, schema_json, statistics_json) VALUES ($1, $2, $3, $4)',
      [table, schema.title, JSON.stringify(recordSchemaToJsonSchema(schema)), JSON.stringify(statistics)]);
    await connection.run('INSERT INTO srag_imports (table_name, file, format, description) VALUES ($1, $2, $3, $4)',
      [table, file, format, options.description?.trim() || null]);
    await refreshTableProfile(connection, table);
    await connection.run('COMMIT');
    return { table, rows: statistics[0]?.rowCount ?? Number(await value(`SELECT count(*) FROM ${quoteIdentifier(table)}`)), columns, format };
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}

/** Snake-case names, made unique with a suffix (`name`, `name_2`) when two headers fold into one. */
function uniqueColumnNames(described: Array<{ header: string; type: string }>): ImportedColumn[] {
  const taken = new Set<string>();
  return described.map(({ header, type }) => {
    const base = toSnakeCase(header, { prefix: 'c_', fallback: 'column' });
    let name = base;
    for (let suffix = 2; taken.has(name); suffix += 1) name = `${base}_${suffix}`;
    taken.add(name);
    return { header, name, type };
  });
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Whether each of `columns`, read as text by `reader`, holds a value whose comma can only be a
 * decimal mark: one not written as thousands groups (`1,234`, `12,345,678`).
 */
async function everyColumnHasDecimalComma(connection: DuckDBConnection, reader: string, columns: string[]): Promise<boolean> {
  const counts = columns.map((column) => `count(*) FILTER (WHERE ${quoteIdentifier(column)} LIKE '%,%' AND NOT regexp_full_match(trim(${quoteIdentifier(column)}), '[-+]?[0-9]{1,3}(,[0-9]{3})+'))`);
  const row = (await connection.runAndReadAll(`SELECT ${counts.join(', ')} FROM ${reader}`)).getRowsJS()[0] ?? [];
  return row.every((count) => Number(count) > 0);
}

/** The delimiters a CSV file's header may use: a comma unless the header has none and uses one of the others. */
const delimiters = [',', ';', '\t', '|'];

/**
 * The delimiter of a .csv file, from its header line: the one of `delimiters` it uses most outside
 * quotes, a comma when it uses none. A spreadsheet saved as CSV in many European locales separates
 * with semicolons; read with commas, each of its lines would be one column of text.
 */
export function headerDelimiter(file: string): string {
  const header = readFileStart(file, 64 * 1024).toString('utf8').split(/\r?\n/, 1)[0] ?? '';
  const counts = new Map(delimiters.map((delimiter) => [delimiter, 0]));
  let quoted = false;
  for (const character of header) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && counts.has(character)) counts.set(character, counts.get(character)! + 1);
  }
  const [best, count] = [...counts].reduce((most, entry) => (entry[1] > most[1] ? entry : most));
  return count > 0 ? best : ',';
}
