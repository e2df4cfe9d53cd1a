import { DuckDBScalarFunction, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import { resolve } from 'node:path';
import { SragError, type RecordSchema } from '../../../core/index.ts';
import { canonicalPath } from '../../runtime/canonical-path.ts';
import type { LlmBridge } from '../llm-bridge/llm-bridge.ts';
import { extractedRecordJson } from './extracted-columns.ts';
import { readSchemaArgument } from './read-schema-argument.ts';
import { renderSqlError } from './render-sql-error.ts';
import { schemaKey } from './schema-key.ts';

/**
 * The scalar `srag_extract(content, schema [, filename])`: the record of one text as JSON (its
 * `_error` inside), for composing with DuckDB's readers, e.g. over `read_text`. DuckDB hands the
 * function a chunk of up to 2048 rows; the chunk is extracted concurrently on the bridge and the
 * callback returns when all of it is done. A scalar's return type is fixed when it is registered,
 * so it cannot be a STRUCT shaped by the schema; `srag_record_type(schema)` gives the
 * `json_transform` structure that makes it one. With `filename`, HTML is reduced and JSON
 * flattened as for files; without, the text is taken as it is.
 */
export function createSragExtractScalarFunctions(bridge: LlmBridge): DuckDBScalarFunction[] {
  const create = (withFilename: boolean) => DuckDBScalarFunction.create({
    name: 'srag_extract',
    returnType: VARCHAR,
    parameterTypes: withFilename ? [VARCHAR, VARCHAR, VARCHAR] : [VARCHAR, VARCHAR],
    // Each call may reach the model; DuckDB must not fold it into a constant or assume purity.
    volatile: true,
    mainFunction(info, input, output) {
      try {
        const contents = input.getColumnValues(0) as Array<string | null>;
        const schemas = input.getColumnValues(1) as Array<string | null>;
        const names = withFilename ? (input.getColumnValues(2) as Array<string | null>) : [];
        const results: Array<string | null> = new Array(input.rowCount).fill(null);
        const groups = new Map<string, { schema: RecordSchema; indexes: number[] }>();
        contents.forEach((content, index) => {
          const schemaText = schemas[index];
          if (content === null || schemaText === null || schemaText === undefined) return;
          let group = groups.get(schemaText);
          if (!group) groups.set(schemaText, group = { schema: readSchemaArgument(schemaText), indexes: [] });
          group.indexes.push(index);
        });
        for (const { schema, indexes } of groups.values()) {
          const { rows } = bridge.callSync({
            type: 'extract-texts',
            schema,
            schemaKey: schemaKey(schema),
            documents: indexes.map((index) => ({ ...identityOf(names[index]), content: contents[index]! })),
            settings: { batchSize: 1, onError: 'capture', retryFailed: true },
          });
          rows.forEach((row, position) => { results[indexes[position]!] = extractedRecordJson(schema, row); });
        }
        results.forEach((result, index) => output.setItem(index, result));
        output.flush();
      } catch (error) {
        info.setError(renderSqlError('srag_extract', error));
      }
    },
  });
  return [create(false), create(true), withoutSchema];
}

/**
 * `srag_extract(x)` with one argument cannot work as a scalar — one text needs its schema — and is
 * what `SELECT srag_extract('docs/*')` (the table form without FROM) binds to: both forms are named.
 */
const withoutSchema = DuckDBScalarFunction.create({
  name: 'srag_extract',
  returnType: VARCHAR,
  parameterTypes: [VARCHAR],
  volatile: true,
  mainFunction(info) {
    info.setError(renderSqlError('srag_extract', new SragError({
      code: 'INPUT_INVALID',
      message: 'srag_extract needs a schema',
      hint: "one row per file: SELECT * FROM srag_extract('docs/*', schema := 'schema.json'); one record per text: SELECT srag_extract(content, 'schema.json', filename) FROM read_text('docs/*')",
    })));
  },
});

/**
 * A text's identity in the store: the file it names (canonical, as `srag_extract(glob)` keys it,
 * so both forms share their records), or — without a file name — its content (the bridge keys it
 * `text:<hash>`).
 */
function identityOf(filename: string | null | undefined): { source: string; label: string } {
  if (!filename) return { source: '', label: 'document' };
  let source = resolve(filename);
  try {
    source = canonicalPath(source);
  } catch {
    // Not a file here: the name still identifies the text.
  }
  return { source, label: filename };
}
