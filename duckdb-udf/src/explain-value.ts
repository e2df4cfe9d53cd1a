import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { childTableName, SragError } from '../../core/index.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { contentHashMissing, keptContentHash, noSuchRecordTable, sragExtractTables } from './catalog/srag-extract-tables.ts';
import { sragCommandLine } from './quote-shell-argument.ts';
import type { SragStore } from './store/srag-store.ts';

/** Where one value came from: what `srag why` prints and `GET /why` returns. */
export interface ValueExplanation {
  table: string;
  /** The document as ingested (its canonical path). */
  source: string;
  attribute: string;
  /** The value as stored, as text; null when none was kept. */
  value: string | null;
  /** What the model returned, before normalization. */
  raw: string | null;
  quote: string | null;
  status: string;
  reason: string | null;
  /** Other documents that also match the `document` asked for (the first match is shown). */
  otherMatches: number;
}

/** Matches a document by its path, a path ending, or any unique part of it (a bare file name). */
const documentMatch = (column: string) => `(${column} = $2 OR ${column} LIKE '%/' || $2 OR ${column} LIKE '%' || $2 || '%')`;

/**
 * The value of `attribute` for `document`, its status and the quote it was read from — for a table
 * `srag ingest` made, and for one made from `srag_extract` (`CREATE TABLE t AS SELECT * FROM
 * srag_extract(…)`), whose rows are found in the evidence `srag_extract` kept by content hash.
 * A value of a child entity's item is named `rooms[2].price_per_night` (or `price_per_night[2]`
 * with the child table).
 * `connection` reads (the store's own for the CLI, a reader of its own for the server); `database`
 * names the file in hints.
 */
export async function explainValue(store: SragStore, connection: DuckDBConnection, { document, attribute, table: tableName, database }: {
  document: string;
  attribute: string;
  table?: string;
  database: string;
}): Promise<ValueExplanation> {
  const ingested = await store.tables();
  let chosen = tableName;
  let extractTable = chosen !== undefined && !ingested.includes(chosen) ? await extractTableColumns(connection, chosen) : undefined;
  if (chosen === undefined) {
    const holding = await extractTableHolding(store, connection, ingested, attribute, database);
    if (holding) [chosen, extractTable] = [holding.name, holding.columns];
  } else if (!extractTable && !ingested.includes(chosen)) {
    const made = await sragExtractTables(connection);
    if (made.some((candidate) => candidate.name === chosen)) throw contentHashMissing(chosen);
    if (made.length > 0) throw noSuchRecordTable(database, chosen, ingested, made);
  }
  let rows: DuckDBValue[][];
  let table: string;
  if (extractTable) {
    table = chosen!;
    if (!extractTable.includes(attribute)) {
      throw new SragError({ code: 'INPUT_INVALID', message: `table ${table} has no column "${attribute}"`, hint: `one of: ${extractTable.filter((column) => !extractColumns.has(column)).join(', ')}` });
    }
    rows = (await connection.runAndReadAll(
      `SELECT t.filename, e.value, e.raw, e.quote, e.status, e.reason
       FROM ${quoteIdentifier(table)} t
       JOIN srag_ingestion_log l ON l.content_hash = t.content_hash AND l.table_name LIKE 'srag_extract:%' AND l.status = 'done'
       JOIN srag_evidence e ON e.table_name = l.table_name AND e.source = l.source AND e.attribute = $1
       WHERE ${documentMatch('t.filename')}
       ORDER BY (t.filename = $2) DESC, length(t.filename)`, [attribute, document])).getRows();
  } else {
    // An item of a child entity: `rooms[2].price_per_night` (from the parent table), or
    // `price_per_night[2]` with --table naming the child table; its evidence is kept as the latter.
    const item = /^(?:([A-Za-z_][A-Za-z0-9_]*)\[(\d+)\]\.)?([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?$/.exec(attribute);
    let info = tableName !== undefined ? await store.tableInfo(tableName)
      : item?.[1] !== undefined ? await tableDeclaring(store, item[1]) : await tableHolding(store, item?.[3] ?? attribute);
    let name = attribute;
    let evidenceName = attribute;
    // The list the table's rows are items of: known from the attribute, or looked up for a child table.
    let list: string | undefined;
    const plainEntity = item?.[1] === undefined && item?.[4] === undefined && tableName === undefined
      && !info.schema.attributes.some((candidate) => candidate.name === attribute)
      ? info.schema.entities?.find((entity) => entity.attributes.some((candidate) => candidate.name === attribute)) : undefined;
    if (item?.[1] !== undefined && item[4] === undefined) {
      const entity = info.schema.entities?.find((candidate) => candidate.name === item[1]);
      if (!entity) {
        throw new SragError({ code: 'INPUT_INVALID', message: `table ${info.table} declares no entity "${item[1]}"`, hint: info.schema.entities?.length ? `one of: ${info.schema.entities.map((candidate) => candidate.name).join(', ')}` : 'name an attribute of the table, e.g. srag why DOCUMENT ATTRIBUTE' });
      }
      info = await store.tableInfo(childTableName(info.table, entity.name));
      [name, evidenceName, list] = [item[3]!, `${item[3]}[${item[2]}]`, entity.name];
    } else if (plainEntity) {
      // A value of each item (`price_per_night` of the rooms), asked without naming the item: its table says which items there are.
      info = await store.tableInfo(childTableName(info.table, plainEntity.name));
      list = plainEntity.name;
    } else if (item?.[1] === undefined && item?.[4] !== undefined) {
      [name, evidenceName] = [item[3]!, attribute];
    }
    table = info.table;
    if (!info.schema.attributes.some((candidate) => candidate.name === name)) {
      throw new SragError({ code: 'INPUT_INVALID', message: `table ${info.table} has no attribute "${name}"`, hint: `one of: ${info.schema.attributes.map((candidate) => candidate.name).join(', ')}` });
    }
    const read = (evidenceAttribute: string, match: string) => connection.runAndReadAll(
      `SELECT source, value, raw, quote, status, reason, attribute FROM srag_evidence
       WHERE table_name = $3 AND ${match} AND ${documentMatch('source')}
       ORDER BY (source = $2) DESC, length(source), length(attribute), attribute`, [evidenceAttribute, document, info.table]);
    rows = (await read(evidenceName, 'attribute = $1')).getRows();
    if (rows.length === 0) {
      // A child table keeps one value per item: say which items the document has, as `rooms[2].price_per_night`.
      const items = (await read(`${name}[%`, 'attribute LIKE $1')).getRows();
      if (items.length > 0) {
        list ??= (await store.childTables()).get(info.table)?.entity;
        const label = (itemAttribute: string) => (list ? itemAttribute.replace(/^(.*)\[(\d+)\]$/, `${list}[$2].$1`) : itemAttribute);
        const listed = items.filter((row) => row[0] === items[0]![0]).map((row) => label(String(row[6])));
        throw new SragError({
          code: 'INPUT_INVALID',
          message: evidenceName === name
            ? `table ${info.table} holds one "${name}" per item of a document: name the item`
            : `the document has ${listed.length === 1 ? 'one item' : `${listed.length} items`} in ${info.table}, not ${JSON.stringify(label(evidenceName))}`,
          hint: `one of: ${listed.slice(0, 10).join(', ')}${listed.length > 10 ? ', …' : ''}`,
        });
      }
    }
  }
  if (rows.length === 0) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `no document matching "${document}" in ${table}`,
      hint: extractTable
        ? `pass a file name from ${sragCommandLine(['sql', '-c', `SELECT filename FROM ${quoteIdentifier(table)}`], database)}; rows from before srag_extract kept evidence have none`
        : `pass the path as ingested or a unique part of it, e.g. the file name (${sragCommandLine(['sql', '-c', `SELECT _source FROM ${quoteIdentifier(table)}`], database)} lists them)`,
    });
  }
  // One document may appear once per identical copy of its content; each is the same evidence.
  const documents = new Set(rows.map((row) => String(row[0])));
  const [source, value, raw, quote, status, reason] = rows[0]!;
  return {
    table,
    source: String(source),
    attribute,
    value: value === null ? null : String(value),
    raw: raw === null ? null : String(raw),
    quote: quote === null ? null : String(quote),
    status: String(status),
    reason: reason === null ? null : String(reason),
    otherMatches: documents.size - 1,
  };
}

/** The one table whose schema declares `entity`, or else what `tableInfo` says without a name (the only table, or which to pass). */
async function tableDeclaring(store: SragStore, entity: string): ReturnType<SragStore['tableInfo']> {
  const declaring = [...(await store.childTables()).values()].filter((child) => child.entity === entity);
  return declaring.length === 1 ? store.tableInfo(declaring[0]!.parent) : store.tableInfo();
}

/**
 * The one table of documents (child tables go with their parent) whose schema or entities hold
 * `attribute`, or else what `tableInfo` says without a name (the only table, or which to pass).
 */
async function tableHolding(store: SragStore, attribute: string): ReturnType<SragStore['tableInfo']> {
  const holding = await ingestedTablesHolding(store, attribute);
  return holding.length === 1 ? holding[0]! : store.tableInfo();
}

/** The tables of documents `srag ingest` or `srag import` made (child tables go with their parent) whose schema or entities hold `attribute`. */
async function ingestedTablesHolding(store: SragStore, attribute: string): Promise<Array<Awaited<ReturnType<SragStore['tableInfo']>>>> {
  const children = await store.childTables();
  const holding = [];
  for (const table of await store.tables()) {
    if (children.has(table)) continue;
    const info = await store.tableInfo(table);
    const attributes = [...info.schema.attributes, ...(info.schema.entities ?? []).flatMap((entity) => entity.attributes)];
    if (attributes.some((candidate) => candidate.name === attribute)) holding.push(info);
  }
  return holding;
}

/** The columns a table made from `srag_extract` has beside its attributes. */
const extractColumns = new Set(['filename', 'content_hash', '_error']);

/**
 * Without a table named: the table made from `srag_extract` (`sragExtractTables`) that has the
 * column `attribute`, when no other table holds it; undefined to go on with the tables `srag
 * ingest` made. A column of several tables, or of none when the database has only tables made from
 * `srag_extract`, is an error that says which to name.
 */
async function extractTableHolding(store: SragStore, connection: DuckDBConnection, ingested: string[], attribute: string, database: string): Promise<{ name: string; columns: string[] } | undefined> {
  const made = await sragExtractTables(connection);
  if (made.length === 0) return undefined;
  const columnsOf = (table: (typeof made)[number]) => table.columns.map((column) => column.name);
  const holding = made.filter((table) => columnsOf(table).includes(attribute));
  if (holding.length === 0) {
    if (ingested.length > 0) return undefined;
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `no table in ${database} has a column "${attribute}"`,
      hint: made.length === 1
        ? `one of: ${columnsOf(made[0]!).filter((column) => !extractColumns.has(column)).join(', ')}`
        : `the tables made from srag_extract: ${made.map((table) => table.name).join(', ')}`,
    });
  }
  const names = [...(ingested.length > 0 ? await ingestedTablesHolding(store, attribute) : []).map((info) => info.table), ...holding.map((table) => table.name)];
  if (names.length > 1) {
    throw new SragError({ code: 'INPUT_INVALID', message: `"${attribute}" is a column of several tables in ${database} (${names.join(', ')})`, hint: `name one of: ${names.join(', ')}`, fix: { kind: 'name-table', choices: names } });
  }
  if (!keptContentHash(holding[0]!)) throw contentHashMissing(holding[0]!.name);
  return { name: holding[0]!.name, columns: columnsOf(holding[0]!) };
}

/** The columns of `table` when it has the shape `srag_extract` returns (filename, content_hash, …); undefined otherwise. */
async function extractTableColumns(connection: DuckDBConnection, table: string): Promise<string[] | undefined> {
  const columns = (await connection.runAndReadAll("SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND table_name = $1 AND schema_name = 'main' ORDER BY column_index", [table])).getRows().map((row) => String(row[0]));
  return columns.includes('filename') && columns.includes('content_hash') ? columns : undefined;
}
