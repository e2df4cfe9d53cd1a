import { SragError } from './sql-engine-port.ts';

/**
 * Valid DuckDB SQL the engine will not answer, because it cannot answer as DuckDB does (a refusal,
 * never a different answer): `SQL_FAILED` with a message that sends the model back to the dialect notes.
 */
export function unsupportedFeature(feature: string): never {
  throw new SragError({
    code: 'SQL_FAILED',
    message: `Not implemented Error: ${feature} is not supported by the spreadsheet SQL engine; rewrite the query with the subset the dialect notes list`,
  });
}
