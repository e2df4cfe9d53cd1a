import { SragError } from './sql-engine-port.ts';

/**
 * Runs one step of the engine so that whatever fails comes out as a `SragError` with a one-line
 * message: the engine's own errors as they are, and a JavaScript error the limits did not foresee
 * (a call stack or a string that ran out) as `SQL_FAILED`, which the repair round and the cell can use.
 */
export function asSqlFailure<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (SragError.isInstance(error)) throw error;
    const detail = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
    const message = /call stack/i.test(detail)
      ? 'the query nests too deeply for the spreadsheet SQL engine; write it flatter'
      : /string length|array length|memory/i.test(detail)
        ? 'the query builds a value too large for the spreadsheet SQL engine; select fewer rows or shorter text'
        : 'the spreadsheet SQL engine could not run the query; rewrite it with the subset the dialect notes list';
    throw new SragError({ code: 'SQL_FAILED', message: `Out of Range Error: ${message} (${detail})`, cause: error });
  }
}
