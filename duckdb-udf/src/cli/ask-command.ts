import { askQuestion, chooseTables, describeCoverage, type TableCatalog, type TableChoice } from '../../../core/index.ts';
import { duckDbTableCatalog } from '../catalog/duckdb-table-catalog.ts';
import { describeTableChoice } from '../catalog/describe-table-choice.ts';
import { sragCommandLine } from '../quote-shell-argument.ts';
import { openSession, type Session } from '../open-session.ts';
import { formatTable } from './format-table.ts';

export interface AskCommandOptions {
  db: string;
  table?: string;
  json?: boolean;
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
 * the named table is the only one. Several questions share one session (one JSON object per line
 * with --json). A question whose SQL fails stops the command with its error, after the answers
 * printed so far.
 */
export async function askCommand(questions: string[], options: AskCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const session = await openSession(options.db, { abortSignal, mustExist: true });
  try {
    const catalog = duckDbTableCatalog((work) => session.store.exclusive(work));
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
        process.stdout.write(`${heading}${result.answer}\n${coverage}\n${describeTableChoice({ tables: choice.tables, joins: result.joins })}\nSQL: ${result.sql}\n${formatTable(result, { maximumRows: shownRows })}\n`);
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
