import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sqlTypeForKind, type AttributeDefinition, type AttributeEvidence, type CachedResponse, type ChildEntity, type RecordSchema, type StoredRecord } from '../../../core/index.ts';
import { quoteIdentifier } from '../duckdb-sql-engine.ts';

/** Rows per statement: enough to amortize the statement, few enough to keep parameter lists short. */
const rowsPerStatement = 200;

/** Where one table's records go: the record table itself and the name its log and evidence rows carry. */
export interface RecordTarget {
  /** The record table, quoted (and qualified when it is not in `main`). */
  quotedTable: string;
  /** `table_name` in srag_ingestion_log and srag_evidence. */
  logName: string;
  schema: RecordSchema;
  /** Per child entity of the schema, its table (see `childTableName`); none for `srag_extract`'s tables. */
  children?: ChildTarget[];
}

/** Where the items of one child entity go: its table, and the name its evidence rows carry. */
export interface ChildTarget {
  entity: ChildEntity;
  quotedTable: string;
  /** `table_name` of its items' evidence in srag_evidence: the child table's name. */
  logName: string;
}

export interface LogWrite {
  source: string;
  contentHash: string;
  status: 'done' | 'failed' | 'empty';
  error: string | null;
  /** For `done`: the attribute definitions the record holds (JSON in the log); absent for whole-record tables. */
  attributeHashes?: readonly string[];
}

export interface CacheWrite {
  key: string;
  response: CachedResponse;
  /** 'extraction' for extraction replies (the SQL functions keep no copy of those), null otherwise. */
  purpose: string | null;
}

/**
 * The one place the store's rows are written, inside the caller's transaction: the records
 * (replacing any earlier row of the same document), their evidence, and a `done` log entry each.
 * A schema's child entities are written the same way: every earlier item of the documents is
 * deleted with its evidence, then the new items are inserted — so a changed document's items are
 * replaced (no duplicates, no orphans), in the same transaction as its row. A record with
 * `onlyAttributes` updates just those columns and leaves its child items as they were.
 */
export async function writeRecords(connection: DuckDBConnection, target: RecordTarget, batch: StoredRecord[]): Promise<void> {
  // The last save of a document wins; one statement may not touch the same row twice.
  const latest = [...new Map(batch.map((record) => [record.source, record])).values()];
  const whole = latest.filter((record) => !record.onlyAttributes);
  const partial = new Map<string, StoredRecord[]>();
  for (const record of latest) {
    if (!record.onlyAttributes) continue;
    const key = record.onlyAttributes.join('\u0000');
    partial.set(key, [...partial.get(key) ?? [], record]);
  }
  if (whole.length) await writeWholeRecords(connection, target, whole);
  for (const records of partial.values()) await writePartialRecords(connection, target, records);
  await writeLogEntries(connection, target.logName, latest.map((record) => ({
    source: record.source, contentHash: record.contentHash, status: 'done', error: null, attributeHashes: record.attributeHashes,
  })));
}

/**
 * Records that got only some attributes (`onlyAttributes`, the same for every record given): those
 * columns of their existing rows and those attributes' evidence are replaced; the rest stays, and
 * so do the documents' child items (a partial extraction asks for no entity).
 */
async function writePartialRecords(connection: DuckDBConnection, target: RecordTarget, records: StoredRecord[]): Promise<void> {
  const names = records[0]!.onlyAttributes!;
  const attributes = names.map((name) => target.schema.attributes.find((attribute) => attribute.name === name)!);
  const width = attributes.length + 1;
  const assignments = attributes.map((attribute) => `${quoteIdentifier(attribute.name)} = v.${quoteIdentifier(attribute.name)}`).join(', ');
  const valueColumns = [...attributes.map((attribute) => quoteIdentifier(attribute.name)), '"_source"'].join(', ');
  for (const slice of slices(records)) {
    const rows = slice.map((_, row) => `(${[...attributes.map((attribute, index) => `$${row * width + index + 1}::${sqlTypeForKind[attribute.kind]}`), `$${row * width + width}`].join(', ')})`);
    await connection.run(
      `UPDATE ${target.quotedTable} AS t SET ${assignments} FROM (VALUES ${rows.join(', ')}) AS v(${valueColumns}) WHERE t."_source" = v."_source"`,
      slice.flatMap((record): DuckDBValue[] => [...attributes.map((attribute) => record.values[attribute.name] ?? null), record.source]),
    );
    await replaceEvidence(connection, target.logName, slice.map((record) => record.source),
      slice.flatMap((record) => record.evidence.map((entry) => ({ source: record.source, attribute: entry.attribute, entry }))), names);
  }
}

/** Whole records: each replaces any earlier row of its document, with all of its evidence. */
async function writeWholeRecords(connection: DuckDBConnection, target: RecordTarget, records: StoredRecord[]): Promise<void> {
  const { schema, quotedTable, logName } = target;
  for (const slice of slices(records)) {
    const sources = slice.map((record) => record.source);
    await connection.run(`DELETE FROM ${quotedTable} WHERE "_source" IN (${sources.map((_, index) => `$${index + 1}`).join(', ')})`, sources);
    await insertRows(connection, quotedTable, schema.attributes, ['"_source"', '"_content_hash"'],
      slice.map((record) => ({ values: record.values, provenance: [record.source, record.contentHash] })));
    await replaceEvidence(connection, logName, sources, slice.flatMap((record) => record.evidence.map((entry) => ({ source: record.source, attribute: entry.attribute, entry }))));
    for (const child of target.children ?? []) {
      await connection.run(`DELETE FROM ${child.quotedTable} WHERE "_source" IN (${sources.map((_, index) => `$${index + 1}`).join(', ')})`, sources);
      const items = slice.flatMap((record) => (record.children?.[child.entity.name] ?? []).map((item, index) => ({ record, item, position: index + 1 })));
      for (const rows of slices(items)) {
        await insertRows(connection, child.quotedTable, child.entity.attributes, ['"_source"', '"_position"', '"_content_hash"'],
          rows.map(({ record, item, position }) => ({ values: item.values, provenance: [record.source, position, record.contentHash] })));
      }
      // An item's evidence is named by its attribute and place: `price_per_night[2]`.
      await replaceEvidence(connection, child.logName, sources, items.flatMap(({ record, item, position }) =>
        item.evidence.map((entry) => ({ source: record.source, attribute: `${entry.attribute}[${position}]`, entry }))));
    }
  }
}

/** Inserts rows of typed attribute values followed by srag's own columns (`provenance`, in `extraColumns` order). */
async function insertRows(
  connection: DuckDBConnection, quotedTable: string, attributes: AttributeDefinition[], extraColumns: string[],
  rows: Array<{ values: StoredRecord['values']; provenance: DuckDBValue[] }>,
): Promise<void> {
  if (rows.length === 0) return;
  const columnList = [...attributes.map((attribute) => quoteIdentifier(attribute.name)), ...extraColumns].join(', ');
  const width = attributes.length + extraColumns.length;
  const typedRow = (row: number) => `(${[
    ...attributes.map((attribute, index) => `$${row * width + index + 1}::${sqlTypeForKind[attribute.kind]}`),
    ...extraColumns.map((_, index) => `$${row * width + attributes.length + index + 1}`),
  ].join(', ')})`;
  await connection.run(
    `INSERT INTO ${quotedTable} (${columnList}) VALUES ${rows.map((_, row) => typedRow(row)).join(', ')}`,
    rows.flatMap((row): DuckDBValue[] => [...attributes.map((attribute) => row.values[attribute.name] ?? null), ...row.provenance]),
  );
}

/** Replaces the evidence of `sources` under `logName` (only that of `attributes` when given) with `entries`. */
async function replaceEvidence(
  connection: DuckDBConnection, logName: string, sources: string[], entries: Array<{ source: string; attribute: string; entry: AttributeEvidence }>, attributes?: string[],
): Promise<void> {
  const onlyThose = attributes ? ` AND attribute IN (${attributes.map((_, index) => `$${sources.length + index + 2}`).join(', ')})` : '';
  await connection.run(`DELETE FROM srag_evidence WHERE table_name = $1 AND source IN (${sources.map((_, index) => `$${index + 2}`).join(', ')})${onlyThose}`, [logName, ...sources, ...attributes ?? []]);
  const evidence = entries.map(({ source, attribute, entry }): DuckDBValue[] => [logName, source, attribute,
    entry.value === null ? null : String(entry.value),
    entry.raw === null || entry.raw === undefined ? null : typeof entry.raw === 'string' ? entry.raw : JSON.stringify(entry.raw),
    entry.quote, entry.status, entry.reason]);
  for (const rows of slices(evidence)) {
    await connection.run(`INSERT INTO srag_evidence (table_name, source, attribute, value, raw, quote, status, reason) VALUES ${placeholders(rows.length, 8)}`, rows.flat());
  }
}

/** Upserts ingestion-log entries: the latest entry per document, with the number of attempts. */
export async function writeLogEntries(connection: DuckDBConnection, logName: string, entries: LogWrite[]): Promise<void> {
  const latest = [...new Map(entries.map((entry) => [entry.source, entry])).values()];
  for (const slice of slices(latest)) {
    await connection.run(
      `INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attribute_hashes, attempts, updated_at)
       SELECT *, 1, current_timestamp FROM (VALUES ${placeholders(slice.length, 6)})
       ON CONFLICT (table_name, source) DO UPDATE SET content_hash = excluded.content_hash, status = excluded.status,
         error = excluded.error, attribute_hashes = excluded.attribute_hashes, attempts = srag_ingestion_log.attempts + 1, updated_at = excluded.updated_at`,
      slice.flatMap((entry): DuckDBValue[] => [logName, entry.source, entry.contentHash, entry.status, entry.error,
        entry.attributeHashes ? JSON.stringify(entry.attributeHashes) : null]),
    );
  }
}

/** Inserts validated model replies; a key already there keeps its reply. */
export async function writeCacheEntries(connection: DuckDBConnection, entries: CacheWrite[]): Promise<void> {
  const unique = [...new Map(entries.map((entry) => [entry.key, entry])).values()];
  for (const slice of slices(unique)) {
    await connection.run(
      `INSERT OR IGNORE INTO srag_cache (key, model, response, prompt_tokens, completion_tokens, purpose) VALUES ${placeholders(slice.length, 6)}`,
      slice.flatMap(({ key, response, purpose }): DuckDBValue[] => [key, response.model, response.text, response.usage.promptTokens, response.usage.completionTokens, purpose]),
    );
  }
}

function slices<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += rowsPerStatement) result.push(items.slice(start, start + rowsPerStatement));
  return result;
}

function placeholders(rows: number, columns: number): string {
  return Array.from({ length: rows }, (_, row) => `(${Array.from({ length: columns }, (_, column) => `$${row * columns + column + 1}`).join(', ')})`).join(', ');
}
