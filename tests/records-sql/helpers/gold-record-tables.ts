import type { DuckDBConnection } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecordSchema, sqlTypeForKind, tableNameForSchema, type SqlValue } from '../../../core/index.ts';
import type { InMemoryTable } from '../../../records-sql/index.ts';
import { readGoldQuestions, type GoldQuestion } from '../../helpers/gold-questions.ts';
import { repositoryRoot } from '../../helpers/run-srag.ts';

export interface GoldRecordTable {
  table: string;
  records: InMemoryTable;
  questions: GoldQuestion[];
}

/** A sample corpus's gold records as the table `srag ingest` would build (attributes, then `_source`). */
export function readGoldRecordTable(corpus: string): GoldRecordTable {
  const schema = parseRecordSchema(JSON.parse(readFileSync(join(repositoryRoot, corpus, 'schema.json'), 'utf8')));
  const lines = readFileSync(join(repositoryRoot, corpus, 'gold', 'records.jsonl'), 'utf8').trim().split('\n');
  const records = lines.map((line) => JSON.parse(line) as { document: string; values: Record<string, { value: SqlValue }> });
  const columns = [...schema.attributes.map((attribute) => ({ name: attribute.name, type: sqlTypeForKind[attribute.kind] })), { name: '_source', type: 'VARCHAR' as const }];
  const rows = records.map((record) => [...schema.attributes.map((attribute) => record.values[attribute.name]?.value ?? null), record.document]);
  return { table: tableNameForSchema(schema), records: { columns, rows }, questions: readGoldQuestions(corpus) };
}

/** The same table in DuckDB, with the same column types. */
export async function createDuckDbTable(connection: DuckDBConnection, { table, records }: GoldRecordTable): Promise<void> {
  await connection.run(`CREATE TABLE ${table} (${records.columns.map((column) => `"${column.name}" ${column.type}`).join(', ')})`);
  const appender = await connection.createAppender(table);
  for (const row of records.rows) {
    row.forEach((value, index) => {
      const type = records.columns[index]!.type;
      if (value === null) appender.appendNull();
      else if (type === 'DOUBLE') appender.appendDouble(Number(value));
      else if (type === 'BIGINT') appender.appendBigInt(BigInt(value as number));
      else if (type === 'BOOLEAN') appender.appendBoolean(Boolean(value));
      else appender.appendVarchar(String(value));
    });
    appender.endRow();
  }
  appender.closeSync();
}
