import { askQuestion, chooseTables, SragError, type AskResult, type HybridReading, type TableCatalog, type TableChoice, type TextEmbedder } from '../../core/index.ts';
import { duckDbTableCatalog } from './catalog/duckdb-table-catalog.ts';
import { extendTableForQuestion, type ExtendTableOptions, type TableExtension } from './extend-table-for-question.ts';
import { hashText } from './hash-text.ts';
import type { Session } from './open-session.ts';
import { sragCommandLine } from './quote-shell-argument.ts';
import { storeDocumentReader } from './store/store-document-reader.ts';
import { sqlString } from './sql-string.ts';

export interface AskInSessionOptions {
  /** The table to ask; without it the question chooses its tables (`chooseTables`). */
  table?: string;
  /** true: read the documents the SQL selects (hybrid); false: SQL only; absent: the model decides per question. */
  hybrid?: boolean;
  /** The embedder for the hybrid path (see `embedderLoader`). */
  loadEmbedder: () => Promise<TextEmbedder | undefined>;
  /**
   * Grow the table first (`srag ask --extend-schema`, `POST /query {extend_schema: true}`): the
   * attributes the question needs that it lacks are added and back-filled (`extendTableForQuestion`).
   */
  extendSchema?: ExtendTableOptions;
  /**
   * How the surface adds attributes, for the ATTRIBUTES_MISSING error of a question asked without
   * `extendSchema` ("srag ask '…' --extend-schema --db …"); the core error's generic hint otherwise.
   */
  extendHint?: string;
}

export interface AskInSessionResult {
  result: AskResult;
  /** What `srag ask --json` prints and `POST /query` returns: the whole result, `coverage` null when absent. */
  json: Record<string, unknown>;
  /** The tables the question was asked of (and how they join). */
  choice: TableChoice;
  /** With `extendSchema`: what was added and what the back-fill cost. */
  extension?: TableExtension;
}

/**
 * One question over the session's database: what `srag ask` prints and `POST /query` returns.
 * With `table` the named table is the only one. The result passes through whole, so every field
 * the ask step adds reaches both surfaces.
 */
export async function askInSession(session: Session, question: string, options: AskInSessionOptions): Promise<AskInSessionResult> {
  const { table, hybrid, loadEmbedder } = options;
  const catalog = duckDbTableCatalog((work) => session.store.exclusive(work));
  const chooseFor = () => (table ? namedTable(session, catalog, table) : chooseTables({ question, catalog }))
    .catch((error: unknown) => pointToSqlForExtractTables(session, question, table, error));
  let choice = await chooseFor();
  let extension: TableExtension | undefined;
  // The table of documents the question is asked of grows first (an imported table has no documents to extract from).
  const extended = options.extendSchema ? choice.tables.find((candidate) => candidate.origin !== 'imported') : undefined;
  if (extended) {
    extension = await extendTableForQuestion(session, extended.name, question, options.extendSchema);
    choice = await chooseFor();
  }
  const result = await askQuestion({
    client: session.modelClient(),
    prompts: session.prompts,
    sqlEngine: session.sqlEngine,
    tables: choice.tables,
    joins: choice.joins,
    question,
    model: session.settings.model,
    coverage: session.sqlEngine,
    answerPath: hybrid === undefined ? 'auto' : hybrid ? 'hybrid' : 'sql',
    hybrid: hybridReading(session, choice, loadEmbedder),
  }).catch((error: unknown) => {
    if (!SragError.isInstance(error) || error.code !== 'ATTRIBUTES_MISSING') throw error;
    // Extending extracts from documents: an imported table has none.
    if (choice.tables.every((candidate) => candidate.origin === 'imported')) throw importedTablesLack(choice.tables.map((candidate) => candidate.name), error);
    if (!options.extendHint) throw error;
    throw new SragError({ code: error.code, message: error.message, hint: options.extendHint, cause: error });
  });
  const joins = result.joins.map(({ table: joined, column, otherTable, otherColumn }) => ({ table: joined, column, otherTable, otherColumn }));
  const added = extension ? {
    added_attributes: extension.addedAttributes.map((attribute) => attribute.name),
    schema_usage: extension.proposalUsage,
    extraction_usage: extension.extractionUsage,
    ...(extension.estimate ? {
      backfill_estimate: {
        documents: extension.estimate.documents, calls: extension.estimate.calls, promptTokens: extension.estimate.promptTokens,
        completionTokens: extension.estimate.completionTokens, costUsd: extension.estimate.costUsd, model: extension.estimate.model,
      },
    } : {}),
    ...(extension.notBackfilled.length ? { not_backfilled: extension.notBackfilled.map((failure) => ({ document: failure.label, reason: failure.error })) } : {}),
  } : {};
  return { result, json: { ...result, joins, coverage: result.coverage ?? null, ...added }, choice, ...(extension ? { extension } : {}) };
}

/**
 * `srag ask` answers from the tables `srag ingest` and `srag import` keep a catalog of; a table made
 * with `CREATE TABLE … AS SELECT * FROM srag_extract(…)` is asked through `srag_ask` in SQL. When
 * srag_extract made tables here and the question found none (or `--table` names a table that is
 * in the database but not in that catalog), the error says so and gives the SQL, rather than
 * telling the user to ingest what they already extracted. A name that is nowhere keeps the error
 * that lists the tables there are.
 */
async function pointToSqlForExtractTables(session: Session, question: string, table: string | undefined, error: unknown): Promise<never> {
  if (!SragError.isInstance(error) || error.code !== 'TABLE_NOT_FOUND') throw error;
  const extracted = await session.store.exclusive(async (connection) => {
    const known = await connection.runAndReadAll("SELECT 1 FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'srag_extract_schemas'");
    if (known.getRowsJS().length === 0 || (await connection.runAndReadAll('SELECT 1 FROM srag_extract_schemas LIMIT 1')).getRowsJS().length === 0) return false;
    return table === undefined || (await connection.runAndReadAll('SELECT 1 FROM duckdb_tables() WHERE table_name = $1', [table])).getRowsJS().length > 0;
  });
  if (!extracted) throw error;
  const pointing = new SragError({
    code: 'TABLE_NOT_FOUND',
    message: table === undefined
      ? `${error.message}; srag ask answers over tables srag ingest or srag import made, and this database's were made by srag_extract`
      : `${error.message}; srag ask answers over tables srag ingest or srag import made, and "${table}" is not one of them`,
    hint: `ask them in SQL: ${sragCommandLine(['sql', `SELECT * FROM srag_ask(${[question, ...(table === undefined ? [] : [table])].map(sqlString).join(', ')})`], session.store.path)}`,
    cause: error,
  });
  pointingToSragAsk.add(pointing);
  throw pointing;
}

/** The errors `pointToSqlForExtractTables` made. */
const pointingToSragAsk = new WeakSet<object>();

/**
 * Whether `error` is the one a question gets when the database's tables that could answer it were
 * made by `srag_extract`: `srag ask` and `POST /query` then answer over them as `srag_ask` does
 * (`askOverExtractTables`).
 */
export function pointsToSragAsk(error: unknown): boolean {
  return typeof error === 'object' && error !== null && pointingToSragAsk.has(error);
}

/** The table `table` names, checked as before (the error lists what exists), as a choice of one. */
async function namedTable(session: Session, catalog: TableCatalog, name: string): Promise<TableChoice> {
  const info = await session.store.tableInfo(name);
  const table = (await catalog.tables()).find((candidate) => candidate.name === info.table)
    ?? { name: info.table, schema: info.schema, statistics: info.statistics, origin: 'extracted' as const };
  return { tables: [table], joins: [], terms: [], coverage: 1 };
}

/**
 * How the hybrid path reads documents: from the paths kept by the extracted tables the question
 * reads (an imported table has no documents), ranked with the endpoint's embeddings when it serves them.
 */
function hybridReading(session: Session, choice: TableChoice, loadEmbedder: () => Promise<TextEmbedder | undefined>): HybridReading {
  const extracted = choice.tables.filter((table) => table.origin === 'extracted').map((table) => table.name);
  return { reader: storeDocumentReader(session.store, extracted), hashText, loadEmbedder, loadTokenCounter: () => session.loadTokenCounter() };
}

/** A question that needs what only imported tables were chosen for, and they lack: no extraction can add it. */
function importedTablesLack(tables: string[], error: SragError): SragError {
  const one = tables.length === 1;
  return new SragError({
    code: error.code,
    message: error.message,
    hint: `${tables.join(', ')} ${one ? 'was' : 'were'} imported with srag import, and srag extracts nothing into an imported table: import ${one ? 'it' : 'them'} again from a file with what is missing (srag import --replace), or ask a table made from documents`,
    cause: error,
  });
}
