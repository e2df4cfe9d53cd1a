import type { ColumnCoverage, SqlValue } from '../../../core/index.ts';
import type { SqlSession } from '../harness/sql-session.ts';
import { runStatement } from './sql-command.ts';
import { sqlString } from '../sql-string.ts';

/** One answer of `srag_ask`, as `srag ask` prints it. */
export interface SragAskAnswer {
  answer: string;
  sql: string;
  columns: string[];
  rows: SqlValue[][];
  /** How the rows were cut to fit, when they were. */
  cut: string | null;
  coverage: ColumnCoverage[] | null;
  tables: string[];
  usage: { promptTokens: number; completionTokens: number };
}

/**
 * A question asked of the tables `srag_extract` made, through `srag_ask` in the session's SQL:
 * the catalog, statistics and coverage of such a table (its evidence keyed by content hash) are
 * `srag_ask`'s, so `srag ask` asks it rather than carrying them twice. `table` names the table,
 * as `--table` does; `extend` is `--extend-schema` (which `srag_ask` refuses for such tables, saying why).
 */
export async function askThroughSragAsk(session: SqlSession, question: string, { table, extend, abortSignal }: { table?: string; extend?: boolean; abortSignal?: AbortSignal }): Promise<SragAskAnswer> {
  const argumentsSql = [sqlString(question), ...(table === undefined ? [] : [sqlString(table)]), ...(extend ? ['extend := true'] : [])].join(', ');
  const result = await runStatement(session, `SELECT answer, sql, result, json_keys(result->0), result_cut, coverage, prompt_tokens, completion_tokens, tables FROM srag_ask(${argumentsSql})`, abortSignal);
  const [answer, sql, rowsJson, keys, cut, coverage, promptTokens, completionTokens, tables] = result.rows[0]!;
  const objects = parsed<Array<Record<string, SqlValue>>>(rowsJson) ?? [];
  // The columns in the query's order, as the JSON text holds them: an object's keys would put integer-like names ("2023") first.
  const columns = parsed<string[]>(keys) ?? [];
  return {
    answer: String(answer),
    sql: String(sql),
    columns,
    rows: objects.map((object) => columns.map((column) => object[column] ?? null)),
    cut: cut === null ? null : String(cut),
    coverage: parsed<ColumnCoverage[]>(coverage),
    tables: parsed<string[]>(tables) ?? [],
    usage: { promptTokens: Number(promptTokens), completionTokens: Number(completionTokens) },
  };
}

/** A JSON column as the session hands it over: text, or null. */
function parsed<Type>(value: SqlValue | undefined): Type | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Type;
}
