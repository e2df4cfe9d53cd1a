import { BIGINT, BOOLEAN, DATE, DOUBLE, DuckDBDateValue, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import type { DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { sqlTypeForKind, type AttributeKind, type NormalizedValue, type RecordColumnSqlType, type RecordSchema } from '../../../core/index.ts';
import type { ExtractedRow } from '../llm-bridge/bridge-protocol.ts';

/** DuckDB's type objects for core's SQL type names. */
const duckDbTypes: Record<RecordColumnSqlType, DuckDBType> = { VARCHAR, DOUBLE, BIGINT, BOOLEAN, DATE };

const millisecondsPerDay = 86_400_000;

/** The columns of `srag_extract`: filename, content_hash, one per attribute (named exactly as the property), _error. */
export function extractedColumns(schema: RecordSchema): Array<{ name: string; type: DuckDBType }> {
  return [
    { name: 'filename', type: VARCHAR },
    { name: 'content_hash', type: VARCHAR },
    ...schema.attributes.map((attribute) => ({ name: attribute.name, type: duckDbTypes[sqlTypeForKind[attribute.kind]] })),
    { name: '_error', type: VARCHAR },
  ];
}

/** Rows as DuckDB column vectors, in the order of `extractedColumns`. */
export function extractedColumnValues(schema: RecordSchema, rows: ExtractedRow[]): DuckDBValue[][] {
  return [
    rows.map((row) => row.filename),
    rows.map((row) => row.contentHash),
    ...schema.attributes.map((attribute) => rows.map((row) => toDuckDbValue(attribute.kind, row.values?.[attribute.name] ?? null))),
    rows.map((row) => row.error),
  ];
}

/** A JSON-safe record for the scalar `srag_extract`: dates stay 'YYYY-MM-DD' for json_transform. */
export function extractedRecordJson(schema: RecordSchema, row: ExtractedRow): string {
  // From entries: an assignment would drop a property named "__proto__".
  const values = schema.attributes.map((attribute): [string, NormalizedValue] => [attribute.name, row.values?.[attribute.name] ?? null]);
  return JSON.stringify(Object.fromEntries([...values, ['_error', row.error]]));
}

/** The `json_transform` structure that turns `extractedRecordJson` into a typed STRUCT. */
export function extractedRecordStructure(schema: RecordSchema): string {
  const columns = schema.attributes.map((attribute): [string, string] => [attribute.name, sqlTypeForKind[attribute.kind]]);
  return JSON.stringify(Object.fromEntries([...columns, ['_error', 'VARCHAR']]));
}

function toDuckDbValue(kind: AttributeKind, value: NormalizedValue): DuckDBValue {
  if (value === null) return null;
  switch (kind) {
    case 'integer':
      return BigInt(Math.trunc(Number(value)));
    case 'number':
      return Number(value);
    case 'boolean':
      return Boolean(value);
    case 'date': {
      const [year, month, day] = String(value).split('-').map(Number);
      const date = new Date(0);
      date.setUTCFullYear(year!, month! - 1, day!);
      return new DuckDBDateValue(Math.round(date.getTime() / millisecondsPerDay));
    }
    default:
      return String(value);
  }
}
