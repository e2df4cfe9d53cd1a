import { sqlTypeForKind, type AttributeDefinition, type AttributeEvidence, type CachedResponse, type ChildEntity, type RecordSchema, type StoredRecord } from '../../../core/index.ts';
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../quote-identifier.ts';
import { deflateReplyText } from './kept-reply-text.ts';
import { sqlString } from '../../runtime/sql-string.ts';

/**
 * Records per slice of statements (each statement takes its rows as one JSON text): a 512-document
 * scan's journal is one slice, not three of 200, and each statement's cost is paid once.
 */
const recordsPerSlice = 5_000;

/** What the writes need of a connection: statements with their texts bound as parameters. */
export interface StatementRunner {
  run(sql: string, values?: Array<string | null>): Promise<unknown>;
}

/** Where one table's records go: the record table itself and the name its log and evidence rows carry. */
export interface RecordTarget {
  /** The record table, quoted (and qualified when it is not in `main`). */
  quotedTable: string;
  /**
   * The record table's name in `main` when its rows may go through DuckDB's appender (see
   * `appendRowsByName`): only where nothing else can run a statement on the connection meanwhile
   * (the ingest's group commit). Without it, rows go through a statement.
   */
  appendTable?: string;
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
  /** As `RecordTarget.appendTable`, for the child table. */
  appendTable?: string;
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
 * `onlyAttributes` updates just those columns and leaves its child items as they were. The
 * documents of `withoutRows` are known to have neither a row nor a log entry (the log did not know
 * them): their rows are inserted without a delete, their log entries appended (`writeLogEntries`).
 */
export async function writeRecords(connection: StatementRunner, target: RecordTarget, batch: StoredRecord[], withoutRows: ReadonlySet<string> = noSources): Promise<void> {
  // One record per document, as the saves one after another would leave it; one statement may not touch the same row twice.
  const latest = [...batch.reduce((bySource, record) => bySource.set(record.source, laterSave(bySource.get(record.source), record)), new Map<string, StoredRecord>()).values()];
  const whole = latest.filter((record) => !record.onlyAttributes);
  const partial = new Map<string, StoredRecord[]>();
  for (const record of latest) {
    if (!record.onlyAttributes) continue;
    const key = record.onlyAttributes.join('\u0000');
    partial.set(key, [...partial.get(key) ?? [], record]);
  }
  if (whole.length) await writeWholeRecords(connection, target, whole, withoutRows);
  for (const records of partial.values()) await writePartialRecords(connection, target, records);
  await writeLogEntries(connection, target.logName, latest.map((record) => ({
    source: record.source, contentHash: record.contentHash, status: 'done', error: null, attributeHashes: record.attributeHashes,
  })), withoutRows);
}

/**
 * What saving `later` after `earlier` leaves of a document: a whole record replaces; a partial one
 * (`onlyAttributes`) overwrites just its attributes of what was saved before, values and evidence.
 */
function laterSave(earlier: StoredRecord | undefined, later: StoredRecord): StoredRecord {
  if (!earlier || !later.onlyAttributes) return later;
  const replaced = new Set(later.onlyAttributes);
  return {
    ...earlier,
    contentHash: later.contentHash,
    values: { ...earlier.values, ...later.values },
    evidence: [...earlier.evidence.filter((entry) => !replaced.has(entry.attribute)), ...later.evidence],
    issues: [...earlier.issues, ...later.issues],
    ...(later.attributeHashes ? { attributeHashes: later.attributeHashes } : {}),
    ...(earlier.onlyAttributes ? { onlyAttributes: [...new Set([...earlier.onlyAttributes, ...later.onlyAttributes])] } : {}),
  };
}

/**
 * Records that got only some attributes (`onlyAttributes`, the same for every record given): those
 * columns of their existing rows and those attributes' evidence are replaced; the rest stays, and
 * so do the documents' child items (a partial extraction asks for no entity).
 */
async function writePartialRecords(connection: StatementRunner, target: RecordTarget, records: StoredRecord[]): Promise<void> {
  const names = records[0]!.onlyAttributes!;
  const attributes = names.map((name) => target.schema.attributes.find((attribute) => attribute.name === name)!);
  const assignments = attributes.map((attribute) => `${quoteIdentifier(attribute.name)} = v.${quoteIdentifier(attribute.name)}`).join(', ');
  const valueColumns = [...attributes.map((attribute) => quoteIdentifier(attribute.name)), '"_source"'];
  const named = castCells([...attributes.map((attribute) => sqlTypeForKind[attribute.kind]), 'VARCHAR'])
    .map((cell, index) => `${cell} AS ${valueColumns[index]}`).join(', ');
  for (const slice of slices(records)) {
    await writeJsonRows(connection,
      slice.map((record) => [...attributes.map((attribute) => cellText(record.values[attribute.name])), record.source]),
      (source) => `UPDATE ${target.quotedTable} AS t SET ${assignments} FROM (SELECT ${named} FROM ${source}) AS v WHERE t."_source" = v."_source"`);
    await replaceEvidence(connection, target.logName, slice.map((record) => record.source),
      slice.flatMap((record) => record.evidence.map((entry) => ({ source: record.source, attribute: entry.attribute, entry }))), names);
  }
}

/**
 * Whole records: each replaces any earlier row of its document, with all of its evidence. The
 * deletes are left out for the documents of `withoutRows` (known to have none): a DELETE … IN
 * scans the whole table, so a first ingest that deleted before every insert did work and held
 * buffers that grew with the table (100,000 documents: ~1.4 M evidence rows scanned per commit).
 */
async function writeWholeRecords(connection: StatementRunner, target: RecordTarget, records: StoredRecord[], withoutRows: ReadonlySet<string>): Promise<void> {
  const { schema, quotedTable, logName } = target;
  for (const slice of slices(records)) {
    const sources = slice.map((record) => record.source);
    const replaced = withoutRows.size === 0 ? sources : sources.filter((source) => !withoutRows.has(source));
    if (replaced.length) await connection.run(`DELETE FROM ${quotedTable} WHERE "_source" IN ${textList('$1')}`, [jsonText(replaced)]);
    await insertRows(connection, { quotedTable, appendTable: target.appendTable }, schema.attributes, [{ name: '_source', type: 'VARCHAR' }, { name: '_content_hash', type: 'VARCHAR' }],
      slice.map((record) => ({ values: record.values, provenance: [record.source, record.contentHash] })));
    await replaceEvidence(connection, logName, replaced, slice.flatMap((record) => record.evidence.map((entry) => ({ source: record.source, attribute: entry.attribute, entry }))));
    for (const child of target.children ?? []) {
      if (replaced.length) await connection.run(`DELETE FROM ${child.quotedTable} WHERE "_source" IN ${textList('$1')}`, [jsonText(replaced)]);
      const items = slice.flatMap((record) => (record.children?.[child.entity.name] ?? []).map((item, index) => ({ record, item, position: index + 1 })));
      await insertRows(connection, child, child.entity.attributes, [{ name: '_source', type: 'VARCHAR' }, { name: '_position', type: 'INTEGER' }, { name: '_content_hash', type: 'VARCHAR' }],
        items.map(({ record, item, position }) => ({ values: item.values, provenance: [record.source, position, record.contentHash] })));
      // An item's evidence is named by its attribute and place: `price_per_night[2]`.
      await replaceEvidence(connection, child.logName, replaced, items.flatMap(({ record, item, position }) =>
        item.evidence.map((entry) => ({ source: record.source, attribute: `${entry.attribute}[${position}]`, entry }))));
    }
  }
}

/** The record table and each child table of `target`, with the name their evidence rows carry. */
function targetTables(target: RecordTarget): Array<{ quotedTable: string; logName: string }> {
  return [target, ...target.children ?? []];
}

/**
 * Moves documents' rows, child items, evidence and log entries from one source to another (a
 * moved or renamed file), in the caller's transaction. A row already under the new source is
 * replaced by the moved one.
 */
export async function moveSources(connection: StatementRunner, target: RecordTarget, moves: ReadonlyArray<{ from: string; to: string }>): Promise<void> {
  const pairs = JSON.stringify(moves.map((move) => ({ before: move.from, after: move.to })));
  const moveList = `(SELECT unnest(from_json($1, '[{"before":"VARCHAR","after":"VARCHAR"}]'), recursive := true))`;
  const targets = `(SELECT after FROM ${moveList})`;
  for (const { quotedTable, logName } of targetTables(target)) {
    await connection.run(`DELETE FROM ${quotedTable} WHERE "_source" IN ${targets}`, [pairs]);
    await connection.run(`UPDATE ${quotedTable} AS t SET "_source" = m.after FROM ${moveList} AS m WHERE t."_source" = m.before`, [pairs]);
    await connection.run(`DELETE FROM srag_evidence WHERE table_name = $2 AND source IN ${targets}`, [pairs, logName]);
    // Copied to the new source, then deleted at the old one: an UPDATE of the key column took ~9×
    // as long over a table grown by many small writes (70,000 rows: 3.9 s against 0.45 s).
    await connection.run(`INSERT INTO srag_evidence BY NAME SELECT t.* EXCLUDE (source), m.after AS source FROM srag_evidence AS t JOIN ${moveList} AS m ON t.source = m.before WHERE t.table_name = $2`, [pairs, logName]);
    await connection.run(`DELETE FROM srag_evidence WHERE table_name = $2 AND source IN (SELECT before FROM ${moveList})`, [pairs, logName]);
  }
  await connection.run(`DELETE FROM srag_ingestion_log WHERE table_name = $2 AND source IN ${targets}`, [pairs, target.logName]);
  await connection.run(`UPDATE srag_ingestion_log AS t SET source = m.after FROM ${moveList} AS m WHERE t.table_name = $2 AND t.source = m.before`, [pairs, target.logName]);
}

/** Removes documents' rows, child items, evidence and log entries, in the caller's transaction. */
export async function removeSources(connection: StatementRunner, target: RecordTarget, sources: readonly string[]): Promise<void> {
  const text = jsonText(sources);
  for (const { quotedTable, logName } of targetTables(target)) {
    await connection.run(`DELETE FROM ${quotedTable} WHERE "_source" IN ${textList('$1')}`, [text]);
    await connection.run(`DELETE FROM srag_evidence WHERE table_name = $2 AND source IN ${textList('$1')}`, [text, logName]);
  }
  await connection.run(`DELETE FROM srag_ingestion_log WHERE table_name = $2 AND source IN ${textList('$1')}`, [text, target.logName]);
}

/**
 * Inserts rows of typed attribute values followed by srag's own columns (`provenance`, in
 * `extraColumns` order): through DuckDB's appender when the table may take it (`appendTable`, see
 * `appendRowsByName`), else one statement per slice that takes the rows as one JSON text. The
 * appender spares DuckDB parsing that text again: the record table's inserts of a 3,000-page
 * ingest's group commits cost ~77 ms of CPU as statements (bench/ingest-store-writes.ts' replay).
 */
async function insertRows(
  connection: StatementRunner, table: { quotedTable: string; appendTable?: string | undefined }, attributes: AttributeDefinition[], extraColumns: Array<{ name: string; type: string }>,
  rows: Array<{ values: StoredRecord['values']; provenance: Array<string | number> }>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = [...attributes.map((attribute) => ({ name: attribute.name, type: sqlTypeForKind[attribute.kind] as string })), ...extraColumns];
  const cells = rows.map((row) => [...attributes.map((attribute) => cellText(row.values[attribute.name])), ...row.provenance.map(cellText)]);
  if (table.appendTable !== undefined && 'createAppender' in connection && await appendRowsByName(connection as Appending, table.appendTable, columns, cells)) return;
  await writeJsonRows(connection, cells,
    (source) => `INSERT INTO ${table.quotedTable} (${columns.map((column) => quoteIdentifier(column.name)).join(', ')}) SELECT ${castCells(columns.map((column) => column.type)).join(', ')} FROM ${source}`);
}

/** Replaces the evidence of `sources` under `logName` (only that of `attributes` when given) with `entries`; those of other documents are added. */
async function replaceEvidence(
  connection: StatementRunner, logName: string, sources: string[], entries: Array<{ source: string; attribute: string; entry: AttributeEvidence }>, attributes?: string[],
): Promise<void> {
  const onlyThose = attributes ? ` AND attribute IN ${textList('$3')}` : '';
  if (sources.length) await connection.run(`DELETE FROM srag_evidence WHERE table_name = $1 AND source IN ${textList('$2')}${onlyThose}`, [logName, jsonText(sources), ...attributes ? [jsonText(attributes)] : []]);
  const evidence = entries.map(({ source, attribute, entry }): Array<string | null> => [logName, source, attribute,
    entry.value === null ? null : String(entry.value),
    entry.raw === null || entry.raw === undefined ? null : typeof entry.raw === 'string' ? entry.raw : JSON.stringify(entry.raw),
    entry.quote, entry.status, entry.reason]);
  if (evidence.length && 'createAppender' in connection && await appendRowsByName(connection as Appending, 'srag_evidence', evidenceColumns, evidence)) return;
  await writeJsonRows(connection, evidence, (rows) => `INSERT INTO srag_evidence (table_name, source, attribute, value, raw, quote, status, reason) SELECT ${castCells(Array(8).fill('VARCHAR')).join(', ')} FROM ${rows}`);
}

/** A connection that can append rows to a table without a statement (DuckDB's appender). */
type Appending = StatementRunner & Pick<DuckDBConnection, 'createAppender' | 'runAndReadAll'>;

/** srag_evidence's columns, as `replaceEvidence` gives its rows' cells. */
const evidenceColumns = ['table_name', 'source', 'attribute', 'value', 'raw', 'quote', 'status', 'reason'].map((name) => ({ name, type: 'VARCHAR' }));

/**
 * Appends `rows` (cells as texts, in the order of `columns`) to `table` (in `main`) through DuckDB's
 * appender, in the caller's transaction; false, having written nothing, unless the table has
 * exactly the columns named, each of the type given. The appender fills a table's columns by
 * place, not by name: the cells are put in the table's own order, read from the table first (a
 * query that reads no row, made before the appender: a query on the connection while it is open
 * failed the next statement), so a table whose columns came in another order (a grown table's
 * added ones come after `_source`) cannot shift a value into its neighbour's column.
 *
 * A text appended to a typed column is cast by DuckDB as the statement's `::TYPE` casts it (the
 * same cast, refusing what does not convert). No JSON text to write and for DuckDB to parse: the
 * group commits of 20,000 documents (280,000 evidence rows) cost 3.9–4.1 s of CPU so, 4.7–4.9 s
 * with the evidence in `writeJsonRows`' statements. The appender's flush runs on the calling
 * thread; a value its column refuses or a row that breaks a key fails it, and the transaction with it.
 */
async function appendRowsByName(
  connection: Appending, table: string, columns: ReadonlyArray<{ name: string; type: string }>, rows: ReadonlyArray<ReadonlyArray<string | null>>,
): Promise<boolean> {
  const shape = await connection.runAndReadAll(`SELECT * FROM ${quoteIdentifier(table)} LIMIT 0`);
  const names = shape.columnNames();
  const types = shape.columnTypes().map((type) => type.toString());
  const given = new Map(columns.map((column, index) => [column.name, { type: column.type, index }]));
  const places = names.map((name, index) => (given.get(name)?.type === types[index] ? given.get(name)!.index : -1));
  if (names.length !== columns.length || places.includes(-1)) return false;
  const appender = await connection.createAppender(table);
  try {
    if (appender.columnCount !== places.length) return false;
    // Index loops: a `for…of` step makes an iterator result until V8 optimizes the loop, and the
    // evidence of a 3,000-page ingest is ~42,000 rows of 8 cells (~6 MB of such garbage).
    for (let rowIndex = 0; rowIndex < rows.length; rowIndex += 1) {
      const row = rows[rowIndex]!;
      for (let placeIndex = 0; placeIndex < places.length; placeIndex += 1) {
        const cell = row[places[placeIndex]!];
        if (cell === null || cell === undefined) appender.appendNull();
        else appender.appendVarchar(cell);
      }
      appender.endRow();
    }
    appender.flushSync();
    return true;
  } finally {
    appender.closeSync();
  }
}

const noSources: ReadonlySet<string> = new Set();

/** Rows per statement of `writeJsonRows`: one JSON text each, a few MB at most for ordinary records. */
const jsonRowsPerStatement = 5_000;

/**
 * Runs `statement(source)` over `rows` with one parameter per statement: the rows go as one JSON
 * array of texts that DuckDB's json extension unnests, and `source` is the subquery giving them
 * as `r[1]`, `r[2]`, … (VARCHAR; the statement casts typed columns, as it would a bound text, so
 * that a cell that does not convert is refused rather than made NULL). Binding a parameter per
 * cell cost ~0.2 ms each: the journal of a 512-document scan took longer to apply than a quarter
 * of its model calls (1.9 s, most of it the evidence); one JSON text per statement takes a fraction.
 */
async function writeJsonRows(connection: StatementRunner, rows: Array<Array<string | null>>, statement: (source: string) => string): Promise<void> {
  const source = `(SELECT unnest(from_json($1::JSON, '[["VARCHAR"]]')) AS r)`;
  for (let start = 0; start < rows.length; start += jsonRowsPerStatement) {
    await connection.run(statement(source), [jsonWithoutLoneSurrogates(rows.slice(start, start + jsonRowsPerStatement))]);
  }
}

/** A cell of `writeJsonRows`: a number as its shortest exact text, which a DOUBLE cast reads back exactly. */
function cellText(value: string | number | boolean | null | undefined): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** `r[1]`, `r[2]::DOUBLE`, …: the cells of a `writeJsonRows` row, each cast to its column's type. */
function castCells(types: readonly string[]): string[] {
  return types.map((type, index) => (type === 'VARCHAR' ? `r[${index + 1}]` : `r[${index + 1}]::${type}`));
}

/**
 * `value` as JSON text, each lone surrogate in its strings as U+FFFD, as a bound parameter's would
 * be: DuckDB's JSON reader refuses the escape JSON.stringify gives it. JSON.stringify writes a lone
 * surrogate as `\udXXX` and nothing else as such an escape unless the text holds a backslash, so
 * only then is the value written again with a replacer — a replacer call per value made the
 * journal's JSON texts cost a fifth of its apply.
 */
function jsonWithoutLoneSurrogates(value: unknown): string {
  const text = JSON.stringify(value);
  return /\\u[dD][89a-fA-F]/.test(text) ? JSON.stringify(value, wellFormed) : text;
}

function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/\p{Surrogate}/gu, '\uFFFD') : value;
}

/**
 * Upserts ingestion-log entries: the latest entry per document, with the number of attempts.
 * Those of `withoutEntries` (documents known to have no entry, as `writeRecords`' `withoutRows`
 * are known to have no row) are appended through DuckDB's appender when the connection has one:
 * no JSON text to write and parse, no conflict to look for: the upsert of a 3,000-page ingest's
 * entries cost ~170–190 ms of DuckDB's CPU (per statement, over `bench/ingest-store-writes.ts`'
 * replay), the appender a few tens. One that had an entry after all breaks the log's key, and
 * fails the transaction as the record's insert does (the ingest then writes it again as any
 * document's).
 */
export async function writeLogEntries(connection: StatementRunner, logName: string, entries: LogWrite[], withoutEntries: ReadonlySet<string> = noSources): Promise<void> {
  let latest = [...new Map(entries.map((entry) => [entry.source, entry])).values()];
  const row = (entry: LogWrite): Array<string | null> => [logName, entry.source, entry.contentHash, entry.status, entry.error, entry.attributeHashes ? JSON.stringify(entry.attributeHashes) : null];
  if (withoutEntries.size && 'createAppender' in connection) {
    const first = latest.filter((entry) => withoutEntries.has(entry.source));
    if (first.length && await appendLogEntries(connection as Appending, first.map(row))) latest = latest.filter((entry) => !withoutEntries.has(entry.source));
  }
  if (latest.length === 0) return;
  await writeJsonRows(connection, latest.map(row),
    (source) => `INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attribute_hashes, attempts, updated_at)
       SELECT ${castCells(Array(6).fill('VARCHAR')).join(', ')}, 1, current_timestamp FROM ${source}
       ON CONFLICT (table_name, source) DO UPDATE SET content_hash = excluded.content_hash, status = excluded.status,
         error = excluded.error, attribute_hashes = excluded.attribute_hashes, attempts = srag_ingestion_log.attempts + 1, updated_at = excluded.updated_at`);
}

/** srag_ingestion_log's columns in the order every file srag made has them (see `cacheColumnTypes`). */
const logColumnTypes = ['VARCHAR', 'VARCHAR', 'VARCHAR', 'VARCHAR', 'VARCHAR', 'INTEGER', 'TIMESTAMP', 'VARCHAR'] as const;

/**
 * Appends first entries (`rows` as `writeLogEntries` gives them: table, source, hash, status,
 * error, attribute hashes), one attempt each, `updated_at` by its default; false, having written
 * nothing, when the table's columns are not those of `logColumnTypes`.
 */
async function appendLogEntries(connection: Appending, rows: ReadonlyArray<ReadonlyArray<string | null>>): Promise<boolean> {
  const appender = await connection.createAppender('srag_ingestion_log');
  try {
    if (!hasColumnTypes(appender, logColumnTypes)) return false;
    for (let rowIndex = 0; rowIndex < rows.length; rowIndex += 1) {
      const row = rows[rowIndex]!;
      // table, source, hash, status, error; then the attempt, `updated_at` and the attribute hashes.
      for (let cell = 0; cell < 5; cell += 1) appendTextOrNull(appender, row[cell] ?? null);
      appender.appendInteger(1);
      appender.appendDefault();
      appendTextOrNull(appender, row[5] ?? null);
      appender.endRow();
    }
    appender.flushSync();
    return true;
  } finally {
    appender.closeSync();
  }
}

/** Whether the appender's table has exactly columns of `types`, in order. */
function hasColumnTypes(appender: DuckDBAppender, types: readonly string[]): boolean {
  return appender.columnCount === types.length && types.every((type, index) => appender.columnType(index).toString() === type);
}

/**
 * Inserts validated model replies; a key already there keeps its reply. The table has no key to
 * refuse a second reply (see `storeTablesSql`; a file made before has one): a reply is inserted
 * only when no row holds its key.
 *
 * Through DuckDB's appender when the caller asks (`appender`) and the connection has one: the keys the table holds are read first
 * (its key column only), and the other replies appended as they are. A statement took the replies
 * as one JSON text — each ~10 KB reply, itself JSON, escaped by JSON.stringify, copied to DuckDB
 * and parsed again there — which made it the costliest write of an ingest: ~200–240 ms of DuckDB's
 * CPU for a 3,000-page ingest's 334 replies, against ~20 ms for the keys' query and ~30 for the appends
 * (per statement, over `bench/ingest-store-writes.ts`' replay). With the log's appends below, the
 * store's writes of those 3,000 pages took 470–886 ms of CPU against 663–1,024 ms (6 runs each).
 */
export async function writeCacheEntries(connection: StatementRunner, entries: CacheWrite[], { appender = false }: {
  /**
   * Through DuckDB's appender: only where nothing else can run a statement on the connection
   * meanwhile (the ingest's group commit). A reply `srag ask` keeps is written while the question's
   * SQL may be pending on it, and the appender failed that statement ("Attempting to execute an
   * unsuccessful or closed pending query result": `srag eval`, tests/e2e/eval.test.ts).
   */
  appender?: boolean;
} = {}): Promise<void> {
  // As one at a time would: the first reply of a key is kept (one statement may not insert a key twice).
  const first = new Map<string, CacheWrite>();
  for (const entry of entries) if (!first.has(entry.key)) first.set(entry.key, entry);
  if (first.size === 0) return;
  if (appender && 'createAppender' in connection && 'runAndReadAll' in connection && await appendCacheEntries(connection as Appending, first)) return;
  if (first.size <= fewRepliesAtMost) {
    await insertFewCacheEntries(connection, [...first.values()]);
    return;
  }
  // The reply deflated (see `deflateReplyText`), in base64 inside the rows' JSON text.
  await writeJsonRows(connection,
    [...first.values()].map(({ key, response, purpose }) => [
      key, response.model, deflateReplyText(response.text).toString('base64'), cellText(response.usage.promptTokens), cellText(response.usage.completionTokens), purpose, response.endpoint ?? null, response.requestKey ?? null,
    ]),
    (source) => `INSERT INTO srag_cache (key, model, response_deflated, prompt_tokens, completion_tokens, purpose, endpoint, request_key)
       SELECT ${castCells(['VARCHAR', 'VARCHAR', 'VARCHAR', 'BIGINT', 'BIGINT', 'VARCHAR', 'VARCHAR', 'VARCHAR']).map((cell, index) => (index === 2 ? `from_base64(${cell})` : cell)).join(', ')} FROM ${source}
       WHERE NOT EXISTS (SELECT 1 FROM srag_cache AS kept WHERE kept.key = r[1])`);
}

/**
 * At most this many replies go in one statement of bound parameters (eight each) rather than as
 * one JSON text: the replies `srag ask`, `srag eval`, `srag serve` and the schema commands keep as
 * they arrive, a few at a time. For one reply the JSON statement cost 5.4–5.8 ms of CPU against
 * 3.8–3.9 for the parameters (100 writes each into a copy of an evaluated sample's file, 3 runs);
 * over `srag eval` of the hotels sample (26 questions, 333 replies) the process and its sandbox
 * used 7.2–7.8 s of CPU before against 6.2–6.4 s with this alone.
 */
const fewRepliesAtMost = 16;

/** `writeCacheEntries` for a few replies (see `fewRepliesAtMost`): the same rows through a VALUES list. */
async function insertFewCacheEntries(connection: StatementRunner, entries: CacheWrite[]): Promise<void> {
  const rows: string[] = [];
  const values: Array<string | null> = [];
  for (const { key, response, purpose } of entries) {
    const at = values.length;
    rows.push(`($${at + 1}::VARCHAR, $${at + 2}::VARCHAR, from_base64($${at + 3}::VARCHAR), $${at + 4}::BIGINT, $${at + 5}::BIGINT, $${at + 6}::VARCHAR, $${at + 7}::VARCHAR, $${at + 8}::VARCHAR)`);
    values.push(key, response.model, deflateReplyText(response.text).toString('base64'), cellText(response.usage.promptTokens), cellText(response.usage.completionTokens), purpose, response.endpoint ?? null, response.requestKey ?? null);
  }
  await connection.run(`INSERT INTO srag_cache (key, model, response_deflated, prompt_tokens, completion_tokens, purpose, endpoint, request_key)
     SELECT * FROM (VALUES ${rows.join(', ')}) AS r(key, model, response_deflated, prompt_tokens, completion_tokens, purpose, endpoint, request_key)
     WHERE NOT EXISTS (SELECT 1 FROM srag_cache AS kept WHERE kept.key = r.key)`, values);
}

/**
 * srag_cache's columns in the order every file srag made has them (its CREATE TABLE, then
 * `addedColumns` in their order), by type: what the appender checks before it appends.
 */
const cacheColumnTypes = ['VARCHAR', 'VARCHAR', 'VARCHAR', 'BIGINT', 'BIGINT', 'TIMESTAMP', 'VARCHAR', 'VARCHAR', 'VARCHAR', 'BLOB'] as const;

/**
 * Appends the replies of `first` whose keys srag_cache does not hold (see `writeCacheEntries`);
 * false, having written nothing, when the table's columns are not those of `cacheColumnTypes`.
 * `created_at` takes its default, as the statement left it.
 */
async function appendCacheEntries(connection: Appending, first: Map<string, CacheWrite>): Promise<boolean> {
  // The keys as an IN list of literals (`textLiterals`), as `SragStore.lookUpReplies` asks: a
  // semi-join with them unnested from one JSON text cost twice as much here (3,000 pages' commits:
  // ~50 against ~20 ms).
  // Asked before the appender is made: a query on the connection while it is open failed the next
  // statement ("Attempting to execute an unsuccessful or closed pending query result").
  const kept = new Set((await connection.runAndReadAll(`SELECT key FROM srag_cache WHERE key IN (${textLiterals([...first.keys()])})`)).getRowsJS().map(([key]) => String(key)));
  const appender = await connection.createAppender('srag_cache');
  try {
    if (!hasColumnTypes(appender, cacheColumnTypes)) return false;
    for (const key of kept) first.delete(key);
    for (const { key, response, purpose } of first.values()) {
      appender.appendVarchar(key);
      appender.appendVarchar(response.model);
      // The text deflated, in the last column (see `deflateReplyText`).
      appender.appendNull();
      // As texts, cast by DuckDB as the statement's `::BIGINT` cast them.
      appender.appendVarchar(String(response.usage.promptTokens));
      appender.appendVarchar(String(response.usage.completionTokens));
      appender.appendDefault();
      appendTextOrNull(appender, purpose);
      appendTextOrNull(appender, response.endpoint ?? null);
      appendTextOrNull(appender, response.requestKey ?? null);
      appender.appendBlob(deflateReplyText(response.text));
      appender.endRow();
    }
    appender.flushSync();
    return true;
  } finally {
    appender.closeSync();
  }
}

function appendTextOrNull(appender: DuckDBAppender, text: string | null): void {
  if (text === null) appender.appendNull();
  else appender.appendVarchar(text);
}

function slices<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += recordsPerSlice) result.push(items.slice(start, start + recordsPerSlice));
  return result;
}

/**
 * `(SELECT …)`: the texts of a JSON array bound as `parameter`, for `x IN …`. One parameter rather
 * than one per text: a parameter costs ~0.2 ms to bind, and DuckDB deletes by a semi-join against
 * the list ~2× faster than by an IN-list of constants (512 documents among 1 M evidence rows:
 * 95–112 ms against 138–173 ms).
 */
function textList(parameter: string): string {
  return `(SELECT unnest(from_json(${parameter}::JSON, '["VARCHAR"]')))`;
}

/**
 * `'a', 'b', …`: texts as SQL literals, for a key column's `IN (…)`. Not parameters: a statement
 * with 64 of them cost ~1 ms of CPU more to prepare and bind (64 keys looked up among 334 replies:
 * 3.3–3.5 ms against 2.2–2.8), and srag_cache's keys are asked for at every group commit and lookup.
 */
export function textLiterals(texts: readonly string[]): string {
  return texts.map(sqlString).join(', ');
}

/** Texts as the JSON array `textList` reads. */
function jsonText(texts: readonly string[]): string {
  return jsonWithoutLoneSurrogates(texts);
}
