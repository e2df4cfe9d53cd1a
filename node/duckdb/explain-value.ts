import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { findRecordTable, onlyRecordTable, type RecordTable } from '../../app/index.ts';
import { SragError } from '../../core/index.ts';
import { contentHashMissing, keptContentHash, readRecordTables } from './catalog/read-record-tables.ts';
import { listValue } from './duckdb-node-api.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { sragCommandLine } from '../runtime/quote-shell-argument.ts';

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

/** `rooms[2].price_per_night` (an item from its document's table), `price_per_night[2]` (from the child table), or a plain name. */
const itemPattern = /^(?:([A-Za-z_][A-Za-z0-9_]*)\[(\d+)\]\.)?([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?$/;

/**
 * The value of `attribute` for `document`, its status and the quote it was read from, in any
 * table that keeps evidence — one `srag ingest` made, or one made from `srag_extract` (`CREATE
 * TABLE t AS SELECT * FROM srag_extract(…)`), whose rows find their evidence by content hash. The
 * table is the one named, or the one table of documents whose schema holds the attribute. A value
 * of a child entity's item is named `rooms[2].price_per_night` (or `price_per_night[2]` with the
 * child table). `connection` reads; `database` names the file in hints.
 */
export async function explainValue(connection: DuckDBConnection, { document, attribute, table: tableName, database }: {
  document: string;
  attribute: string;
  table?: string;
  database: string;
}): Promise<ValueExplanation> {
  const tables = await readRecordTables(connection);
  const item = itemPattern.exec(attribute);
  let table = tableName !== undefined ? findRecordTable(tables, tableName, database) : await tableHolding(connection, tables, item, attribute, document, database);
  if (table.madeBy === 'srag import') {
    throw new SragError({ code: 'INPUT_INVALID', message: `table ${table.name} was imported with srag import: its values were taken as they are, with no quote behind them`, hint: 'ask srag why of a table made from documents (srag ingest or srag_extract)' });
  }
  if (table.madeBy === 'srag_extract') return explainExtractValue(connection, table, document, attribute, database);
  let name = attribute;
  let evidenceName = attribute;
  // The list the table's rows are items of: known from the attribute, or looked up for a child table.
  let list = table.parent?.entity.name;
  const child = (entity: string) => findRecordTable(tables, `${table.name}__${entity}`, database);
  const plainEntity = item?.[1] === undefined && item?.[4] === undefined && tableName === undefined
    && !table.schema.attributes.some((candidate) => candidate.name === attribute)
    ? table.schema.entities?.find((entity) => entity.attributes.some((candidate) => candidate.name === attribute)) : undefined;
  if (item?.[1] !== undefined && item[4] === undefined) {
    const entity = table.schema.entities?.find((candidate) => candidate.name === item[1]);
    if (!entity) {
      throw new SragError({ code: 'INPUT_INVALID', message: `table ${table.name} declares no entity "${item[1]}"`, hint: table.schema.entities?.length ? `one of: ${table.schema.entities.map((candidate) => candidate.name).join(', ')}` : 'name an attribute of the table, e.g. srag why DOCUMENT ATTRIBUTE' });
    }
    table = child(entity.name);
    [name, evidenceName, list] = [item[3]!, `${item[3]}[${item[2]}]`, entity.name];
  } else if (plainEntity) {
    // A value of each item (`price_per_night` of the rooms), asked without naming the item: its table says which items there are.
    table = child(plainEntity.name);
    list = plainEntity.name;
  } else if (item?.[1] === undefined && item?.[4] !== undefined) {
    [name, evidenceName] = [item[3]!, attribute];
  }
  const explained = table;
  if (!explained.schema.attributes.some((candidate) => candidate.name === name)) {
    throw new SragError({ code: 'INPUT_INVALID', message: `table ${explained.name} has no attribute "${name}"`, hint: `one of: ${explained.schema.attributes.map((candidate) => candidate.name).join(', ')}` });
  }
  const read = (evidenceAttribute: string, match: string) => connection.runAndReadAll(
    `SELECT source, value, raw, quote, status, reason, attribute FROM srag_evidence
     WHERE table_name = $3 AND ${match} AND ${documentMatch('source')}
     ORDER BY (source = $2) DESC, length(source), length(attribute), attribute`, [evidenceAttribute, document, explained.evidence!.name]);
  const rows = (await read(evidenceName, 'attribute = $1')).getRows();
  if (rows.length === 0) {
    // A child table keeps one value per item: say which items the document has, as `rooms[2].price_per_night`.
    const items = (await read(`${name}[%`, 'attribute LIKE $1')).getRows();
    if (items.length > 0) {
      const label = (itemAttribute: string) => (list ? itemAttribute.replace(/^(.*)\[(\d+)\]$/, `${list}[$2].$1`) : itemAttribute);
      const listed = items.filter((row) => row[0] === items[0]![0]).map((row) => label(String(row[6])));
      throw new SragError({
        code: 'INPUT_INVALID',
        message: evidenceName === name
          ? `table ${explained.name} holds one "${name}" per item of a document: name the item`
          : `the document has ${listed.length === 1 ? 'one item' : `${listed.length} items`} in ${explained.name}, not ${JSON.stringify(label(evidenceName))}`,
        hint: `one of: ${listed.slice(0, 10).join(', ')}${listed.length > 10 ? ', …' : ''}`,
        fix: { kind: 'name-item', choices: listed },
      });
    }
  }
  return explanation(rows, explained.name, attribute, document, `pass the path as ingested or a unique part of it, e.g. the file name (${sragCommandLine(['sql', '-c', `SELECT _source FROM ${quoteIdentifier(explained.name)}`], database)} lists them)`);
}

/**
 * Without a table named: the one table of documents (child tables go with their parent) whose
 * schema or entities hold the attribute — or declare the entity an item names — and, among
 * several, the one whose evidence has the document; several still are an error that names them,
 * none the database's only table (or an error naming the tables).
 */
async function tableHolding(connection: DuckDBConnection, tables: readonly RecordTable[], item: RegExpExecArray | null, attribute: string, document: string, database: string): Promise<RecordTable> {
  const documentTables = tables.filter((table) => !table.parent && table.madeBy !== 'srag import');
  let holding = documentTables.filter((table) => (item?.[1] !== undefined
    ? (table.schema.entities ?? []).some((entity) => entity.name === item[1])
    : [...table.schema.attributes, ...(table.schema.entities ?? []).flatMap((entity) => entity.attributes)].some((candidate) => candidate.name === (item?.[3] ?? attribute))));
  if (holding.length > 1) {
    // The evidence of a table and of its children is kept under their own names: any of them may have the document.
    const keptUnder = (table: RecordTable) => [table.evidence!.name, ...(table.schema.entities ?? []).map((entity) => `${table.name}__${entity.name}`)];
    const found = new Set((await connection.runAndReadAll(
      `SELECT DISTINCT table_name FROM srag_evidence WHERE list_contains($1::VARCHAR[], table_name) AND ${documentMatch('source').replaceAll('$2', '$2::VARCHAR')}`,
      [listValue(holding.flatMap(keptUnder)), document],
    )).getRowsJS().map((row) => String(row[0])));
    const withDocument = holding.filter((table) => keptUnder(table).some((name) => found.has(name)));
    if (withDocument.length > 0) holding = withDocument;
  }
  if (holding.length === 1) return holding[0]!;
  if (holding.length > 1) {
    const names = holding.map((table) => table.name);
    throw new SragError({ code: 'INPUT_INVALID', message: `"${attribute}" is a column of several tables in ${database} (${names.join(', ')})`, hint: `name one of: ${names.join(', ')}`, fix: { kind: 'name-table', choices: names } });
  }
  return onlyRecordTable(tables, database);
}

/** A value of a table made from `srag_extract`'s rows: the evidence its schema's scans kept, found by the row's content hash. */
async function explainExtractValue(connection: DuckDBConnection, table: RecordTable, document: string, attribute: string, database: string): Promise<ValueExplanation> {
  if (!keptContentHash(table)) throw contentHashMissing(table.name);
  if (!table.schema.attributes.some((candidate) => candidate.name === attribute)) {
    throw new SragError({ code: 'INPUT_INVALID', message: `table ${table.name} has no column "${attribute}"`, hint: `one of: ${table.schema.attributes.map((candidate) => candidate.name).join(', ')}` });
  }
  const rows = (await connection.runAndReadAll(
    `SELECT t.filename, e.value, e.raw, e.quote, e.status, e.reason
     FROM ${quoteIdentifier(table.name)} t
     JOIN srag_ingestion_log l ON l.content_hash = t.content_hash AND l.table_name = $3 AND l.status = 'done'
     JOIN srag_evidence e ON e.table_name = l.table_name AND e.source = l.source AND e.attribute = $1
     WHERE ${documentMatch('t.filename')}
     ORDER BY (t.filename = $2) DESC, length(t.filename)`, [attribute, document, table.evidence!.name])).getRows();
  return explanation(rows, table.name, attribute, document,
    `pass a file name from ${sragCommandLine(['sql', '-c', `SELECT filename FROM ${quoteIdentifier(table.name)}`], database)}; rows from before srag_extract kept evidence have none`);
}

/** The first matching row's evidence, counting the other documents that matched; an error with `hint` when none did. */
function explanation(rows: DuckDBValue[][], table: string, attribute: string, document: string, hint: string): ValueExplanation {
  if (rows.length === 0) throw new SragError({ code: 'INPUT_INVALID', message: `no document matching "${document}" in ${table}`, hint });
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
