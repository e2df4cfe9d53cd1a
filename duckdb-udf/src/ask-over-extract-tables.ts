import { listValue } from './duckdb-node-api.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { questionPhrases, type ColumnCoverage, type SqlValue } from '../../core/index.ts';
import { askCatalogSql, readAskRequest } from './llm-bridge/ask-request.ts';
import type { AskReply } from './llm-bridge/bridge-protocol.ts';
import type { Session } from './open-session.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { copyEvidenceExportSql, evidenceExportSql, sandboxExportOptions } from './sandbox/sandbox-table-source.ts';

/** One answer over tables made from `srag_extract`, as `srag ask` prints it and `POST /query` returns it. */
export interface ExtractTablesAnswer {
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
 * A question over the tables made with `CREATE TABLE … AS SELECT * FROM srag_extract(…)`, asked of
 * a database a session has open (`srag ask`, `srag serve`): the very `askOverTable` that
 * `srag_ask` runs in SQL, with the catalog `srag_ask`'s macro reads (`askCatalogSql`), the columns
 * each query names exported to Parquet over `connection` as `srag ask` exports an ingested table,
 * and the evidence keyed to a copy's rows by content hash. So both surfaces answer over such tables
 * as `srag_ask` does, without a SQL session of their own. `table` names the table; `extend` is
 * refused for such tables, saying why (`srag_ask`'s own refusal).
 */
export async function askOverExtractTables(session: Session, connection: DuckDBConnection, question: string, { table, extend = false }: { table?: string; extend?: boolean } = {}): Promise<ExtractTablesAnswer> {
  const catalog = (await connection.runAndReadAll(
    `SELECT ${askCatalogSql('$1::VARCHAR', '$2::VARCHAR[]').join(', ')}`,
    [table ?? null, listValue(questionPhrases(question))],
  )).getRowsJS()[0]!.map((value) => (value === null ? null : String(value)));
  const request = readAskRequest(question, table ?? null, catalog, extend);
  // DuckDB runs one statement per connection at once: the engine's exports wait their turn.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = (work: () => Promise<unknown>): Promise<void> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next.then(() => undefined);
  };
  const { askOverTable } = await import('./llm-bridge/ask-over-table.ts');
  const reply = await askOverTable({
    client: session.modelClient(),
    prompts: session.prompts,
    request,
    model: session.settings.model,
    exportTable: (name, columns, file) => serialized(() =>
      connection.run(`COPY (SELECT ${columns.map(quoteIdentifier).join(', ')} FROM ${quoteIdentifier(name)}) TO $1 (${sandboxExportOptions})`, [file])),
    exportEvidence: (name, attributes, file, copy) => serialized(() => (copy
      ? connection.run(`COPY (${copyEvidenceExportSql}) TO $3 (${sandboxExportOptions})`, [name, listValue(attributes), file, copy])
      : connection.run(`COPY (${evidenceExportSql}) TO $3 (${sandboxExportOptions})`, [name, listValue(attributes), file]))),
    // `askOverTable` refuses to grow a table srag ingest did not make before it would get here.
    extend: () => Promise.reject(new Error('askOverExtractTables: no table made from srag_extract can be grown')),
  });
  return extractTablesAnswer(reply);
}

/** `srag ask --json` and `POST /query` for such an answer: the fields an ingested table's answer has, where it has them. */
export function extractTablesAnswerJson(answer: ExtractTablesAnswer): Record<string, unknown> {
  return {
    answer: answer.answer, sql: answer.sql, path: 'sql', columns: answer.columns, rows: answer.rows, tables: answer.tables,
    coverage: answer.coverage, ...(answer.cut ? { cut: answer.cut } : {}), usage: answer.usage, via: 'srag_ask',
  };
}

function extractTablesAnswer(reply: AskReply): ExtractTablesAnswer {
  const objects = JSON.parse(reply.resultJson) as Array<Record<string, SqlValue>>;
  return {
    answer: reply.answer,
    sql: reply.sql,
    columns: reply.columns,
    rows: objects.map((object) => reply.columns.map((column) => object[column] ?? null)),
    cut: reply.resultCut,
    coverage: reply.coverage,
    tables: reply.tables,
    usage: { promptTokens: reply.promptTokens, completionTokens: reply.completionTokens },
  };
}
