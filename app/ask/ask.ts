import { askQuestion, SragError, type AnswerPathChoice, type AskResult } from '../../core/index.ts';
import type { AskPorts } from '../ports/ask-ports.ts';
import type { ExtensionReport, GrowOptions } from '../ports/table-grower.ts';
import type { RecordTable } from '../tables/record-table.ts';
import { recordTables } from '../tables/record-tables.ts';
import { chooseRecordTables } from './choose-record-tables.ts';
import { recordTableSource } from './record-table-source.ts';
import { refuseEmptyTables } from './refuse-empty-tables.ts';
import { tableToGrow } from './table-to-grow.ts';

export interface AskOptions {
  /** The table to ask; without it the question chooses its tables, among every table whatever made it. */
  table?: string;
  /** true: read the documents the SQL selects (hybrid); false: SQL only; absent: the model decides where documents can be read. */
  hybrid?: boolean;
  /** Grow the table first: the attributes the question needs that it lacks are added and back-filled (`--extend-schema`). */
  extend?: Omit<GrowOptions, 'dryRun'>;
  /** Default true; false leaves `answer` empty (a spreadsheet cell shows the rows). */
  withAnswer?: boolean;
}

/** An answer with what it rests on: the tables as the catalog describes them, and what growing the table added. */
export interface Answer extends AskResult {
  chosen: RecordTable[];
  extension?: ExtensionReport;
}

/**
 * One question over a database, the same pipeline for every surface (`srag ask`, `POST /query`,
 * `srag_ask`, `srag mcp`) and every table, whatever made it (`srag ingest`, `srag import`,
 * `srag_extract`): the database's tables are read in one snapshot, the question chooses among
 * them (or names one), the table of documents grows first when asked, statistics a table does not
 * keep are computed in the sandbox, and the S-RAG question step (`askQuestion`) writes the SQL,
 * runs it in a sandbox that holds exactly the chosen tables, counts the coverage and words the answer.
 */
export async function ask(ports: AskPorts, question: string, options: AskOptions = {}): Promise<Answer> {
  const snapshot = await ports.readTables(question, options.table);
  let tables = recordTables(snapshot);
  let exporter = ports.exporter;
  let choice = await chooseRecordTables(snapshot, tables, question, options.table, ports.database, ports.readLinks);
  let extension: ExtensionReport | undefined;
  refuseEmptyTables(choice.tables);
  if (options.extend) {
    const target = tableToGrow(choice.tables, question, ports.grower);
    const growth = await ports.grower!.grow(target, question, options.extend);
    tables = tables.map((table) => (table.name === target.name ? growth.table : table));
    exporter = growth.exporter ?? exporter;
    extension = growth.report;
    choice = await chooseRecordTables(snapshot, tables, question, options.table, ports.database, ports.readLinks);
  }
  const engine = ports.openEngine(recordTableSource(choice.tables, exporter));
  const chosen: RecordTable[] = [];
  for (const table of choice.tables) {
    chosen.push(table.statisticsKept ? table : { ...table, statistics: await engine.computeStatistics(table.name, table.schema) });
  }
  refuseEmptyTables(chosen);
  const documentTables = chosen.filter((table) => table.madeBy === 'srag ingest');
  const answerPath = chooseAnswerPath(options.hybrid, documentTables.length > 0 && ports.hybridReading !== undefined);
  const result = await askQuestion({
    client: ports.client,
    prompts: ports.prompts,
    sqlEngine: engine,
    coverage: engine,
    tables: chosen,
    joins: choice.joins,
    question,
    model: ports.model,
    withAnswer: options.withAnswer,
    answerPath,
    ...(answerPath === 'sql' ? {} : { hybrid: ports.hybridReading!(documentTables) }),
  }).catch((error: unknown) => {
    throw attributesMissing(error, question, chosen, options.table);
  });
  return { ...result, chosen, ...(extension ? { extension } : {}) };
}

/**
 * The path a question may take: the hybrid path reads documents, which only tables `srag ingest`
 * made keep (their paths and content hashes); forcing it elsewhere is refused.
 */
function chooseAnswerPath(hybrid: boolean | undefined, documentsReadable: boolean): AnswerPathChoice {
  if (hybrid === false) return 'sql';
  if (hybrid === true && !documentsReadable) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: 'the hybrid path reads the documents of tables srag ingest made, and the question is asked of none (tables made by srag import or srag_extract are answered from SQL alone)',
      hint: 'ask without the hybrid path',
      fix: { kind: 'answer-from-sql' },
    });
  }
  return hybrid === true ? 'hybrid' : documentsReadable ? 'auto' : 'sql';
}

/**
 * A question that needs attributes the chosen tables lack: the fix is to grow the table of
 * documents (as data, each surface words it), or, when only imported tables were chosen, to import
 * again — srag extracts nothing into an imported table.
 */
function attributesMissing(error: unknown, question: string, chosen: readonly RecordTable[], named: string | undefined): unknown {
  if (!SragError.isInstance(error) || error.code !== 'ATTRIBUTES_MISSING') return error;
  const growable = chosen.find((table) => table.madeBy === 'srag ingest');
  if (growable) {
    return new SragError({ code: error.code, message: error.message, hint: error.hint, fix: { kind: 'extend-schema', question, table: named ?? (chosen.length > 1 ? growable.name : undefined) }, cause: error });
  }
  const names = chosen.map((table) => table.name);
  const one = names.length === 1;
  const hint = chosen.every((table) => table.madeBy === 'srag import')
    ? `${names.join(', ')} ${one ? 'was' : 'were'} imported with srag import, and srag extracts nothing into an imported table: import ${one ? 'it' : 'them'} again from a file with what is missing (srag import --replace), or ask a table made from documents`
    : `${names.join(', ')} ${one ? 'was' : 'were'} not made by srag ingest, so no attribute can be added at question time: extract ${one ? 'it' : 'them'} again with srag_extract and a schema that names what is missing, or ingest the documents with srag ingest`;
  return new SragError({ code: error.code, message: error.message, hint, cause: error });
}
