import { recordSchemaToJsonSchema, tableNameForSchema, type RecordSchema } from '../../../core/index.ts';
import { hashText } from '../../runtime/hash-text.ts';

/**
 * Names a schema `srag_extract` was called with: `srag_extract:<title>:<hash>`. It keys the
 * schema in `srag_extract_schemas`, its record table (see `extractRecordTable`) and its rows in
 * `srag_ingestion_log` and `srag_evidence`, apart from the tables `srag ingest` fills.
 */
export function schemaKey(schema: RecordSchema): string {
  // Node's SHA-256, not core's portable one: the scalar form computes the key for every row DuckDB hands it.
  return `srag_extract:${tableNameForSchema(schema)}:${hashText(JSON.stringify(recordSchemaToJsonSchema(schema))).slice(0, 12)}`;
}
