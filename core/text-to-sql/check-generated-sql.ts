import { SqlRejectedError } from '../errors/sql-rejected-error.ts';
import type { SqlEngine } from '../ports/sql-engine.ts';

/**
 * Functions that read or write outside the allowed table. The sandbox that runs the query has
 * external access disabled and holds only the allowed tables; this list makes the refusal explicit
 * (and explainable) before anything runs.
 */
const forbiddenFunctions = new Set([
  'getenv', 'current_setting', 'duckdb_settings', 'duckdb_tables', 'duckdb_columns', 'duckdb_databases',
  'duckdb_extensions', 'duckdb_secrets', 'which_secret', 'glob', 'query', 'query_table', 'sqlite_scan',
]);
/**
 * Characters that make the query shown differ from the query run: C0 and C1 controls but tab,
 * line feed and carriage return (a NUL ends the text for DuckDB's parser and for a terminal, so
 * the guard and the reader see less than the engine could), and the bidirectional overrides and
 * marks that reorder text on screen.
 */
const hiddenCharacterClass = '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]';
const hiddenCharacter = new RegExp(hiddenCharacterClass);
const hiddenCharacterEverywhere = new RegExp(hiddenCharacterClass, 'g');
/** Table functions that generate data without touching anything else. */
const allowedTableFunctions = new Set(['range', 'generate_series', 'unnest']);

/**
 * Check LLM-written SQL with the engine's parser (S-RAG paper §3.3 runs it; we treat it as untrusted,
 * it may come from a prompt-injected document): exactly one SELECT, reading only `allowedTables`,
 * calling no file or catalog functions. Throws `SqlRejectedError` naming what was refused.
 */
export async function checkGeneratedSql(sqlEngine: SqlEngine, sql: string, allowedTables: string[]): Promise<void> {
  const hidden = hiddenCharacter.exec(sql);
  if (hidden) {
    const codePoint = `U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new SqlRejectedError({
      sql: sql.replace(hiddenCharacterEverywhere, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`),
      reason: `it contains the control character ${codePoint} at position ${hidden.index + 1}, which hides part of the query from whoever reads it`,
    });
  }
  const parsed = await sqlEngine.parseSelect(sql);
  const allowed = new Set(allowedTables.map((table) => table.toLowerCase()));
  const strayTables = parsed.tables.filter((table) => !allowed.has(table));
  if (strayTables.length) {
    throw new SqlRejectedError({ sql, reason: `it reads ${strayTables.map((table) => `"${table}"`).join(', ')}; only ${allowedTables.map((table) => `"${table}"`).join(', ')} may be queried` });
  }
  const strayTableFunctions = parsed.tableFunctions.filter((name) => !allowedTableFunctions.has(name));
  if (strayTableFunctions.length) {
    throw new SqlRejectedError({ sql, reason: `it calls the table function ${strayTableFunctions.join(', ')}; file readers and other table functions are not allowed` });
  }
  const strayFunctions = parsed.functions.filter((name) => forbiddenFunctions.has(name) || name.startsWith('read_'));
  if (strayFunctions.length) {
    throw new SqlRejectedError({ sql, reason: `it calls ${strayFunctions.join(', ')}, which is not allowed in generated SQL` });
  }
}
