import { parseRecordSchema, SragError, type ColumnStatistics, type RecordSchema } from '../../../core/index.ts';
import type { AskRequest } from './bridge-protocol.ts';
import { sqlString } from '../sql-string.ts';

/** The table `srag_ask` answers over, and what text-to-SQL needs to know about it. */
export interface AskTable {
  name: string;
  columns: Array<{ name: string; type: string }>;
  schema: RecordSchema;
  /** Stored by `srag ingest`; undefined when they must be computed from the table (a table made by `srag_extract`). */
  statistics: ColumnStatistics[] | undefined;
  /** `_source`, the name the prompt gives the provenance column, for a table that calls it `filename`. */
  aliases: Array<{ name: string; of: string }>;
  /** `table_name` of its rows in `srag_evidence`: the table's own name (srag ingest) or the schema key (srag_extract). */
  evidenceName: string;
  /**
   * This table's name when it is a copy of `srag_extract`'s rows (`CREATE TABLE … AS SELECT * FROM
   * srag_extract(…)`): its `filename` is not a document's identity, so the evidence is keyed to its
   * rows through `content_hash` (see `copyEvidenceExportSql`).
   */
  evidenceCopy?: string;
}

/**
 * Picks the table and its schema. A table `srag ingest` made has its schema and statistics in
 * `srag_tables` (the very ones `srag ask` uses). A table made with
 * `CREATE TABLE … AS SELECT … FROM srag_extract(…)` is known by its columns: the schema
 * `srag_extract` recorded that shares the most attribute names with the table is used, cut down to
 * the attributes the table kept. `srag_ask(question)` over a database with one such table takes
 * it; with several, the caller chooses among `askCandidates`.
 */
export function resolveAskTable(request: AskRequest): AskTable {
  const byName = new Map(request.tables.map((table) => [table.name.toLowerCase(), table]));
  const explained = (table: AskRequest['tables'][number]) => explain(request, table);
  let chosen: AskRequest['tables'][number] | undefined;
  if (request.table !== null) {
    chosen = byName.get(request.table.toLowerCase());
    if (!chosen) {
      const recordTables = request.tables.filter((table) => explained(table) !== undefined).map((table) => table.name);
      throw new SragError({
        code: 'TABLE_NOT_FOUND',
        message: `srag_ask: no table "${request.table}" in this database${recordTables.length ? `; record tables: ${recordTables.join(', ')}` : ''}`,
        hint: recordTables.length ? `SELECT * FROM srag_ask('…', ${sqlString(recordTables[0]!)})` : makeOneHint,
      });
    }
  } else {
    // Several candidates are chosen among by the caller (`askCandidates`, `chooseTables`); here there is one or none.
    const candidates = askCandidates(request);
    if (candidates.length === 0) {
      throw new SragError({ code: 'TABLE_NOT_FOUND', message: 'srag_ask: this database has no record table to answer from', hint: makeOneHint });
    }
    return candidates[0]!;
  }
  const found = explained(chosen);
  if (!found) {
    throw new SragError({
      code: 'TABLE_NOT_FOUND',
      message: `srag_ask: table "${chosen.name}" was not made by srag_extract, srag ingest or srag import, so the meaning of its columns is unknown`,
      hint: makeOneHint,
    });
  }
  return askTable(chosen, found);
}

/**
 * The tables `srag_ask(question)` may choose from: those in `srag_tables` (ingested or imported)
 * and those with a `filename` column that a schema `srag_extract` recorded explains.
 */
export function askCandidates(request: AskRequest): AskTable[] {
  return request.tables.flatMap((table) => {
    const found = explain(request, table);
    return found && (isRegistered(request, table.name) || hasColumn(table, 'filename')) ? [askTable(table, found)] : [];
  });
}

function askTable(table: AskRequest['tables'][number], found: NonNullable<ReturnType<typeof explain>>): AskTable {
  const aliases = !hasColumn(table, '_source') && hasColumn(table, 'filename') ? [{ name: '_source', of: 'filename' }] : [];
  const copy = aliases.length > 0 && hasColumn(table, 'content_hash') && found.evidenceName !== table.name;
  return { name: table.name, columns: table.columns, schema: found.schema, statistics: found.statistics, aliases, evidenceName: found.evidenceName, ...(copy ? { evidenceCopy: table.name } : {}) };
}

const makeOneHint = "make one with CREATE TABLE hotels AS SELECT * FROM srag_extract('docs/*', schema := 'schema.json'), or with srag ingest";

function isRegistered(request: AskRequest, table: string): boolean {
  return request.knownSchemas.some((known) => known.origin === 'srag_tables' && known.name.toLowerCase() === table.toLowerCase());
}

function hasColumn(table: AskRequest['tables'][number], name: string): boolean {
  return table.columns.some((column) => column.name === name);
}

function explain(request: AskRequest, table: AskRequest['tables'][number]): { schema: RecordSchema; statistics: ColumnStatistics[] | undefined; evidenceName: string } | undefined {
  const registered = request.knownSchemas.find((known) => known.origin === 'srag_tables' && known.name.toLowerCase() === table.name.toLowerCase());
  if (registered) {
    const schema = parseRecordSchema(JSON.parse(registered.schemaJson), `table "${registered.name}"`);
    return { schema, statistics: registered.statisticsJson ? (JSON.parse(registered.statisticsJson) as ColumnStatistics[]) : undefined, evidenceName: registered.name };
  }
  const columns = new Set(table.columns.map((column) => column.name));
  let best: { schema: RecordSchema; overlap: number; key: string } | undefined;
  for (const known of request.knownSchemas) {
    if (known.origin !== 'srag_extract') continue;
    const schema = parseRecordSchema(JSON.parse(known.schemaJson), `schema ${known.name}`);
    const overlap = schema.attributes.filter((attribute) => columns.has(attribute.name)).length;
    if (overlap > 0 && (!best || overlap > best.overlap)) best = { schema, overlap, key: known.name };
  }
  if (!best) return undefined;
  return { schema: { ...best.schema, attributes: best.schema.attributes.filter((attribute) => columns.has(attribute.name)) }, statistics: undefined, evidenceName: best.key };
}
