import { DuckDBScalarFunction, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import { extractedRecordStructure } from './extracted-columns.ts';
import { readSchemaArgument } from './read-schema-argument.ts';
import { renderSqlError } from './render-sql-error.ts';

/**
 * `srag_record_type(schema)`: the `json_transform` structure of a schema's record, e.g.
 * `{"hotel_name":"VARCHAR","star_rating":"BIGINT",…,"_error":"VARCHAR"}`. With a constant
 * argument DuckDB folds it while binding, which is what `json_transform` requires.
 */
export function createSragRecordTypeFunction(): DuckDBScalarFunction {
  return DuckDBScalarFunction.create({
    name: 'srag_record_type',
    returnType: VARCHAR,
    parameterTypes: [VARCHAR],
    mainFunction(info, input, output) {
      try {
        const schemas = input.getColumnValues(0) as Array<string | null>;
        schemas.forEach((schema, index) => output.setItem(index, schema === null ? null : extractedRecordStructure(readSchemaArgument(schema))));
        output.flush();
      } catch (error) {
        info.setError(renderSqlError('srag_record_type', error));
      }
    },
  });
}
