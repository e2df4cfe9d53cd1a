import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GrowthStore, RecordTable, TableExporter } from '../../../app/index.ts';
import {
  attributeDefinitionHash, recordSchemaToJsonSchema, sqlTypeForKind,
  type AttributeDefinition, type IngestionLogEntry, type NormalizedValue, type RecordSchema, type ResponseCache,
} from '../../../core/index.ts';
import { DuckDBInstance } from '../../duckdb/duckdb-node-api.ts';
import { hashText } from '../../runtime/hash-text.ts';
import { quoteIdentifier } from '../../duckdb/quote-identifier.ts';
import { sandboxExportOptions } from '../../duckdb/sandbox/sandbox-table-source.ts';
import { BridgeStore } from './bridge-store.ts';
import { IngestionLogCopy } from './ingestion-log-copy.ts';
import type { JournalChannel } from './journal-channel.ts';

/**
 * Where `srag_ask(question, extend := true)` grows a table, on the bridge worker, which may not
 * query the database while the statement runs: the grown schema is journaled (`grow-table`: the
 * columns are added when the journal is applied, after the statement); the table's ingestion log
 * is exported by the blocked thread; each back-filled record's values and evidence are journaled
 * as they arrive — so an interrupted statement resumes where it stopped, without duplicates — and
 * laid over the committed rows for the question asked in the same statement. Statistics are
 * computed from the rows as laid over (they are refreshed when the journal is applied).
 */
export function bridgeGrowthStore(journal: JournalChannel, exporter: TableExporter, cache: ResponseCache): GrowthStore {
  const log = new Map<string, IngestionLogEntry>();
  const values = new Map<string, Record<string, NormalizedValue>>();
  const evidence: Array<{ source: string; attribute: string; status: string }> = [];
  return {
    keepSchema: async (table, schema) => {
      await journal.write([{ kind: 'grow-table', table, schemaJson: JSON.stringify(recordSchemaToJsonSchema(schema)) }]);
      return schema;
    },
    incompleteSources: async (table, schema) => {
      for (const [source, entry] of await readIngestionLog(exporter, table.name, table.schema)) log.set(source, entry);
      const hashes = schema.attributes.map((attribute) => attributeDefinitionHash(attribute, hashText));
      return [...log.values()].filter((entry) => entry.status === 'done' && hashes.some((hash) => !entry.attributeHashes!.includes(hash))).map((entry) => entry.source).sort();
    },
    extractionStore: (table) => {
      const copy = new IngestionLogCopy();
      for (const entry of log.values()) copy.set(entry);
      const store = new BridgeStore(journal, table, copy, cache);
      const save = store.saveRecord.bind(store);
      // What this call back-fills is laid over the committed table until the journal is applied.
      store.saveRecord = async (record) => {
        await save(record);
        values.set(record.source, { ...values.get(record.source), ...record.values });
        for (const entry of record.evidence) evidence.push({ source: record.source, attribute: entry.attribute, status: entry.status });
      };
      return store;
    },
    grownTable: async (table, schema) => {
      const existing = new Set(table.columns.map((column) => column.name));
      // Attributes of the grown schema the committed table has no column for yet (journaled by this or an unapplied earlier call).
      const uncommitted = schema.attributes.filter((attribute) => !existing.has(attribute.name));
      const laid = schema.attributes.filter((attribute) => !existing.has(attribute.name) || [...values.values()].some((record) => attribute.name in record));
      const grown: RecordTable = {
        ...table, schema, statistics: [], statisticsKept: false,
        columns: [...table.columns, ...uncommitted.map((attribute) => ({ name: attribute.name, type: sqlTypeForKind[attribute.kind] }))],
      };
      return {
        table: grown,
        exporter: {
          exportTable: (name, columns, file) => mergedExport(exporter, name, columns, file, { existing, laid, values }),
          exportEvidence: (where, attributes, file) => mergedEvidence(exporter, where, attributes, file, evidence),
        },
      };
    },
  };
}

/**
 * The table's ingestion log, exported by the blocked thread: per document its content hash,
 * status and the attribute definitions its record holds (a record logged before those were kept
 * holds the table's schema as stored).
 */
async function readIngestionLog(exporter: TableExporter, table: string, schema: RecordSchema): Promise<Map<string, IngestionLogEntry>> {
  const storedHashes = schema.attributes.map((attribute) => attributeDefinitionHash(attribute, hashText));
  return withScratch(async (directory, connection) => {
    const file = join(directory, 'log.parquet');
    await exporter.exportTable('srag_ingestion_log', ['table_name', 'source', 'content_hash', 'status', 'error', 'attribute_hashes'], file);
    const rows = (await connection.runAndReadAll('SELECT source, content_hash, status, error, attribute_hashes FROM read_parquet($1) WHERE table_name = $2', [file, table])).getRowsJS();
    return new Map(rows.map((row) => [String(row[0]), {
      source: String(row[0]), contentHash: String(row[1]), status: row[2] as IngestionLogEntry['status'], error: row[3] === null ? null : String(row[3]),
      ...(row[2] === 'done' ? { attributeHashes: row[4] === null ? storedHashes : (JSON.parse(String(row[4])) as string[]) } : {}),
    }]));
  });
}

/**
 * Writes `columns` of the table as the question sees it: the committed columns, with each laid
 * attribute's back-filled value over the committed one (a column the database does not have yet
 * is the back-filled values alone). Rows still go from DuckDB to DuckDB: only the values back-filled
 * now cross as JSON.
 */
async function mergedExport(
  exporter: TableExporter, table: string, columns: string[], file: string,
  state: { existing: Set<string>; laid: AttributeDefinition[]; values: Map<string, Record<string, NormalizedValue>> },
): Promise<void> {
  const laid = state.laid.filter((attribute) => columns.includes(attribute.name));
  if (laid.length === 0) return exporter.exportTable(table, columns, file);
  await withScratch(async (directory, connection) => {
    const committed = join(directory, 'committed.parquet');
    await exporter.exportTable(table, [...new Set(['_source', ...columns.filter((column) => state.existing.has(column))])], committed);
    const structure = Object.fromEntries([['_source', 'VARCHAR'], ...laid.map((attribute) => [attribute.name, sqlTypeForKind[attribute.kind]])]);
    const rows = [...state.values].map(([source, record]) => ({ _source: source, ...Object.fromEntries(laid.map((attribute) => [attribute.name, record[attribute.name] ?? null])) }));
    const select = columns.map((column) => {
      const quoted = quoteIdentifier(column);
      if (!laid.some((attribute) => attribute.name === column)) return `t.${quoted}`;
      return state.existing.has(column) ? `coalesce(v.${quoted}, t.${quoted}) AS ${quoted}` : `v.${quoted} AS ${quoted}`;
    });
    await connection.run(`COPY (SELECT ${select.join(', ')} FROM read_parquet($1) t LEFT JOIN (SELECT unnest(from_json($2, $3), recursive := true)) v ON v."_source" = t."_source") TO '${file.replace(/'/g, "''")}' (${sandboxExportOptions})`,
      [committed, JSON.stringify(rows), JSON.stringify([structure])]);
  });
}

/** The committed evidence of `attributes`, and that of the values back-filled now (which replaces it). */
async function mergedEvidence(
  exporter: TableExporter, where: { name: string; copyOf?: string }, attributes: string[], file: string,
  pending: Array<{ source: string; attribute: string; status: string }>,
): Promise<void> {
  const added = pending.filter((entry) => attributes.includes(entry.attribute));
  if (added.length === 0) return exporter.exportEvidence(where, attributes, file);
  await withScratch(async (directory, connection) => {
    const committed = join(directory, 'evidence.parquet');
    await exporter.exportEvidence(where, attributes, committed);
    await connection.run(`COPY (
      WITH v AS (SELECT unnest(from_json($2, '[{"source":"VARCHAR","attribute":"VARCHAR","status":"VARCHAR"}]'), recursive := true))
      SELECT source, attribute, status FROM read_parquet($1) t WHERE NOT EXISTS (SELECT 1 FROM v WHERE v.source = t.source AND v.attribute = t.attribute)
      UNION ALL SELECT source, attribute, status FROM v) TO '${file.replace(/'/g, "''")}' (${sandboxExportOptions})`, [committed, JSON.stringify(added)]);
  });
}

/** An in-memory DuckDB and a private directory for one step, both gone afterwards. */
async function withScratch<T>(work: (directory: string, connection: Awaited<ReturnType<DuckDBInstance['connect']>>) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), 'srag-extend-'));
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const connection = await instance.connect();
    try {
      return await work(directory, connection);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
    await rm(directory, { recursive: true, force: true });
  }
}
