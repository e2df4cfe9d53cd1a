import { askQuestion, describeCoverage } from '../../../core/index.ts';
import { sragCommandLine } from '../quote-shell-argument.ts';
import { openSession } from '../open-session.ts';
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
 * `srag ask`: question → SQL → answer; the answer always comes with the SQL it rests on. Several
 * questions share one session (one JSON object per line with --json). A question whose SQL fails
 * stops the command with its error, after the answers printed so far.
 */
export async function askCommand(questions: string[], options: AskCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const session = await openSession(options.db, { abortSignal, mustExist: true });
  try {
    const info = await session.store.tableInfo(options.table);
    for (const [index, question] of questions.entries()) {
      const result = await askQuestion({
        client: session.modelClient(),
        prompts: session.prompts,
        sqlEngine: session.sqlEngine,
        table: info.table,
        schema: info.schema,
        statistics: info.statistics,
        question,
        model: session.settings.model,
        coverage: session.sqlEngine,
      });
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ ...result, coverage: result.coverage ?? null })}\n`);
      } else {
        const heading = questions.length > 1 ? `${index > 0 ? '\n' : ''}Q: ${question}\n` : '';
        const note = describeCoverage(result.coverage, {
          title: info.schema.title,
          whereToLook: (column, document) => `see ${sragCommandLine(['why', document ? documentName(document) : '<document>', column], options.db)}`,
        });
        const coverage = note ? `\nCoverage: ${note.split('\n').join('\n  ')}\n` : '';
        process.stdout.write(`${heading}${result.answer}\n${coverage}\nSQL: ${result.sql}\n${formatTable(result, { maximumRows: shownRows })}\n`);
      }
    }
    return 0;
  } finally {
    session.close();
  }
}
