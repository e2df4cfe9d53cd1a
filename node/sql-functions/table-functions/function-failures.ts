import type { SragError } from '../../../core/index.ts';

/**
 * The srag failures the SQL functions handed DuckDB on this thread, by the text they handed it
 * (`renderSqlError`). DuckDB passes a function's error on as text only; the statement's caller
 * (the SQL session) takes the failure back with `takeFunctionFailure`, so its code, hint and fix
 * reach the CLI as data rather than being read back out of the words.
 */
const reported: Array<{ text: string; error: SragError }> = [];
/** A statement reports one failure; a few are kept in case an error is reported and then superseded. */
const kept = 8;

export function reportFunctionFailure(text: string, error: SragError): void {
  reported.push({ text, error });
  if (reported.length > kept) reported.shift();
}

/** The failure whose text DuckDB's error `message` carries, if a function reported it; the record is emptied either way. */
export function takeFunctionFailure(message: string): SragError | undefined {
  const found = [...reported].reverse().find((entry) => message.includes(entry.text));
  reported.length = 0;
  return found?.error;
}
