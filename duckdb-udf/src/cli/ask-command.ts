import { askQuestion, chooseTables, countNoun, describeCoverage, type AskResult, type HybridReading, type TableCatalog, type TableChoice, type TextEmbedder } from '../../../core/index.ts';
import { duckDbTableCatalog } from '../catalog/duckdb-table-catalog.ts';
import { describeTableChoice } from '../catalog/describe-table-choice.ts';
import { detectTextEmbedder } from '../evaluation/detect-text-embedder.ts';
import { friendlyPath } from '../friendly-path.ts';
import { hashText } from '../hash-text.ts';
import { sragCommandLine } from '../quote-shell-argument.ts';
import { openSession, type Session } from '../open-session.ts';
import { storeDocumentReader } from '../store/store-document-reader.ts';
import { formatTable } from './format-table.ts';

export interface AskCommandOptions {
  db: string;
  table?: string;
  json?: boolean;
  /** true: `--hybrid` (read the documents the SQL selects); false: `--no-hybrid` (SQL only); absent: the model decides per question. */
  hybrid?: boolean;
}

/** The file name of a document's path: what `srag why` needs to find it. */
function documentName(source: string): string {
  return source.slice(Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1);
}

/** Rows of a result shown under the answer; --json returns every row the engine returned. */
const shownRows = 100;

/**
 * `srag ask`: question → tables → SQL → answer; the answer always comes with the tables and the
 * SQL it rests on. Without --table each question chooses its tables (`chooseTables`); with it,
 * the named table is the only one. By default the model that writes
 * the SQL also decides whether the question needs the documents' text (the S-RAG paper's hybrid
 * mode, §3.3): the SQL then selects documents, and the answer is read from them and names them.
 * Several questions share one session (one JSON object per line
 * with --json). A question whose SQL fails stops the command with its error, after the answers
 * printed so far.
 */
export async function askCommand(questions: string[], options: AskCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const session = await openSession(options.db, { abortSignal, mustExist: true });
  try {
    const catalog = duckDbTableCatalog((work) => session.store.exclusive(work));
    const loadEmbedder = embedderLoader(session);
    for (const [index, question] of questions.entries()) {
      const choice = options.table ? await namedTable(session, catalog, options.table) : await chooseTables({ question, catalog });
      const result = await askQuestion({
        client: session.modelClient(),
        prompts: session.prompts,
        sqlEngine: session.sqlEngine,
        tables: choice.tables,
        joins: choice.joins,
        question,
        model: session.settings.model,
        coverage: session.sqlEngine,
        answerPath: options.hybrid === undefined ? 'auto' : options.hybrid ? 'hybrid' : 'sql',
        hybrid: hybridReading(session, choice, loadEmbedder),
      });
      if (options.json) {
        const joins = result.joins.map(({ table, column, otherTable, otherColumn }) => ({ table, column, otherTable, otherColumn }));
        process.stdout.write(`${JSON.stringify({ ...result, joins, coverage: result.coverage ?? null })}\n`);
      } else {
        const heading = questions.length > 1 ? `${index > 0 ? '\n' : ''}Q: ${question}\n` : '';
        const note = describeCoverage(result.coverage, {
          title: choice.tables.map((table) => table.schema.title).join(', '),
          whereToLook: (column, document) => `see ${sragCommandLine(['why', document ? documentName(document) : '<document>', column], options.db)}`,
        });
        const coverage = note ? `\nCoverage: ${note.split('\n').join('\n  ')}\n` : '';
        process.stdout.write(`${heading}${result.answer}\n${coverage}\n${describeTableChoice({ tables: choice.tables, joins: result.joins })}\n${renderEvidence(result)}\n`);
      }
    }
    return 0;
  } finally {
    session.close();
  }
}

/** The table --table names, checked as before (the error lists what exists), as a choice of one. */
async function namedTable(session: Session, catalog: TableCatalog, name: string): Promise<TableChoice> {
  const info = await session.store.tableInfo(name);
  const table = (await catalog.tables()).find((candidate) => candidate.name === info.table)
    ?? { name: info.table, schema: info.schema, statistics: info.statistics, origin: 'extracted' as const };
  return { tables: [table], joins: [], terms: [], coverage: 1 };
}

/** What the answer rests on: the path taken, then the rows, or the documents read and those that could not be. */
function renderEvidence(result: AskResult): string {
  if (result.path === 'sql') return `Path: sql (the answer rests on the rows below)\nSQL: ${result.sql}\n${formatTable(result, { maximumRows: shownRows })}`;
  const documents = result.documents ?? [];
  const lines = [
    `Path: hybrid (the answer was read from ${countNoun(documents.length, 'document')} of the ${result.selectedDocuments ?? 0} the SQL selected)`,
    `SQL: ${result.sql}`,
    ...documents.map((source) => `  read: ${friendlyPath(source)}`),
    ...(result.documentProblems ?? []).map((problem) => `  not read: ${problem.message}`),
  ];
  return lines.join('\n');
}

/**
 * How the hybrid path reads documents: from the paths kept by the extracted tables the question
 * reads (an imported table has no documents), ranked with the endpoint's embeddings when it serves them.
 */
function hybridReading(session: Session, choice: TableChoice, loadEmbedder: () => Promise<TextEmbedder | undefined>): HybridReading {
  const extracted = choice.tables.filter((table) => table.origin === 'extracted').map((table) => table.name);
  return { reader: storeDocumentReader(session.store, extracted), hashText, loadEmbedder, loadTokenCounter: () => session.loadTokenCounter() };
}

/** The embedder, probed once per command and only when a question takes the hybrid path. */
function embedderLoader(session: Session): () => Promise<TextEmbedder | undefined> {
  let embedder: Promise<TextEmbedder | undefined> | undefined;
  // No endpoint configured (answers from the cache only): nothing to probe, BM25 ranks.
  return () => (embedder ??= !session.settings.apiKey && !session.settings.baseURL ? Promise.resolve(undefined) : detectTextEmbedder({
    apiKey: session.settings.apiKey,
    baseURL: session.settings.baseURL,
    model: process.env.SRAG_EMBEDDING_MODEL || 'text-embedding-3-small',
    timeoutMilliseconds: session.settings.requestTimeoutMilliseconds,
  }).then((detected) => ('embedder' in detected ? detected.embedder : undefined)));
}
