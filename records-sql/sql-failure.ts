import { SragError } from './sql-engine-port.ts';

/**
 * The error every step of a query throws when the query cannot run: `SQL_FAILED`, whose message
 * goes back to the model in the repair round, so it is written as DuckDB would write it
 * ("Binder Error: …") and says what to change.
 */
export function sqlFailure(message: string): never {
  throw new SragError({ code: 'SQL_FAILED', message });
}
