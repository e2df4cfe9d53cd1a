import { BOOLEAN, DuckDBScalarFunction, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import { SragError } from '../../../core/index.ts';
import { readTableSnapshot } from '../../../app/index.ts';
import { tableSnapshotSql } from '../../duckdb/catalog/table-snapshot-sql.ts';
import type { LlmBridge } from '../llm-bridge/llm-bridge.ts';
import { renderSqlError } from './render-sql-error.ts';

/**
 * `srag_ask(question)` and `srag_ask(question, 'table')` as SQL: a table macro over the scalar
 * `srag_ask_json`, which the bridge answers with the same core `askQuestion` that `srag ask` runs.
 * `extend := true` grows the table first, as `srag ask --extend-schema` does (`extendAskTable`):
 * the `schema_extension` column says what was added and what the back-fill cost (NULL otherwise).
 *
 * The design, and why. DuckDB's callbacks are synchronous and run on the thread that owns the
 * database; model calls are not, so the callback blocks (`LlmBridge.callSync`) while the bridge
 * worker asks the model. The worker cannot query the database (a second DuckDB instance on the
 * same file is unsafe), and a callback cannot await a query; so the macro hands over only what is
 * small — the question, the table's name, the catalog (tables, columns, types), the schemas and
 * statistics in `srag_tables` and `srag_extract_schemas`, and for `srag_ask(question)` what table
 * choice needs (imports, links, the question's phrases that DuckDB found among column values) —
 * never rows. When the worker has a query to run, it asks the blocked thread (a `CallerRequest`
 * on the synchronous port) to export the columns the query names to Parquet in a private
 * temporary directory; that thread runs a
 * statement prepared beforehand, task by task, synchronously (`SynchronousTableExport`). The worker
 * then runs the query in the same sandbox `srag ask` uses (`DuckDbSqlEngine`: fresh in-memory
 * DuckDB, external access off but for that file, configuration locked, time, memory and result
 * bounded). So a million-row table costs one columnar export of the columns used, not a JSON value.
 */
export function createSragAskJsonFunction(bridge: LlmBridge): DuckDBScalarFunction {
  return DuckDBScalarFunction.create({
    name: 'srag_ask_json',
    returnType: VARCHAR,
    parameterTypes: [VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, BOOLEAN],
    volatile: true,
    // NULL arguments reach the callback (the one-argument form passes a NULL table) instead of
    // DuckDB answering NULL without calling it.
    specialHandling: true,
    mainFunction(info, input, output) {
      try {
        const [questions, tables, catalogs, registered, extracted, choiceCatalogs] = Array.from({ length: 6 }, (_, index) => input.getColumnValues(index) as Array<string | null>);
        const extendFlags = input.getColumnValues(6) as Array<boolean | null>;
        for (let index = 0; index < input.rowCount; index += 1) {
          const question = questions![index];
          if (!question?.trim()) {
            throw new SragError({ code: 'INPUT_INVALID', message: 'srag_ask needs a question', hint: "SELECT * FROM srag_ask('How many hotels are in Spain?')" });
          }
          const snapshot = readTableSnapshot([catalogs![index], registered![index], extracted![index], choiceCatalogs![index]]);
          const reply = bridge.callSync({ type: 'ask', request: { question, table: tables![index] ?? null, snapshot, extend: extendFlags[index] === true } });
          // The rows' text goes in as the bridge wrote it: parsed and written again, integer-like column names would move first.
          const rest = JSON.stringify({
            answer: reply.answer, sql: reply.sql, result_cut: reply.resultCut, coverage: reply.coverage,
            prompt_tokens: reply.promptTokens, completion_tokens: reply.completionTokens, tables: reply.tables,
            schema_extension: reply.schemaExtension,
          });
          output.setItem(index, `{"result":${reply.resultJson},${rest.slice(1)}`);
        }
        output.flush();
      } catch (error) {
        info.setError(renderSqlError('srag_ask', error));
      }
    },
  });
}

/** What `srag_ask()` says, in either form: the call with a question. */
const noQuestion = "srag_ask needs a question: SELECT * FROM srag_ask(''How many hotels are in Spain?'')";

/**
 * The macros, created TEMP on each connection the harness hands out. `table` is a reserved word
 * in DuckDB, so the named form needs quotes (`"table" := 'hotels'`); the positional form works too.
 * A scalar macro of the same name (DuckDB keeps scalar and table macros apart) turns the form that
 * cannot work, `SELECT srag_ask('…')`, into a one-line error that names the form that does; an
 * overload without arguments does the same for `srag_ask()`.
 */
export const sragAskMacroSql = `
CREATE OR REPLACE TEMP MACRO srag_ask(question, "table" := NULL, extend := false) AS TABLE (
SELECT srag_answer.* FROM (SELECT json_transform(srag_ask_json(
  question,
  "table",
  ${tableSnapshotSql('"table"', `from_json(srag_question_phrases(question), '["VARCHAR"]')`).join(',\n  ')},
  extend
), '{"answer":"VARCHAR","sql":"VARCHAR","result":"JSON","result_cut":"VARCHAR","coverage":"JSON","prompt_tokens":"BIGINT","completion_tokens":"BIGINT","tables":"VARCHAR[]","schema_extension":"JSON"}') AS srag_answer)),
() AS TABLE (SELECT error('${noQuestion}') AS answer);
CREATE OR REPLACE TEMP MACRO srag_ask(question, "table" := NULL, extend := false) AS
error('srag_ask is a table function: SELECT * FROM srag_ask(''' || replace(question, '''', '''''') || '''' || coalesce(', ''' || replace("table", '''', '''''') || '''', '') || ')'),
() AS error('${noQuestion}');
`;
