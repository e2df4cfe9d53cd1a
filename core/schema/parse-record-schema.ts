import { SchemaInvalidError } from '../errors/schema-invalid-error.ts';
import type { RecordSchema } from './attribute-definition.ts';
import type { CheckPropertyOptions } from './check-property-definition.ts';
import { checkRecordSchema } from './check-record-schema.ts';

/**
 * Parse a JSON-Schema document into a `RecordSchema`, or throw one `SchemaInvalidError` carrying
 * every problem found, each naming the property, the key and the fix. `source` names where the
 * schema came from in messages (a file path, "model output").
 */
export function parseRecordSchema(input: unknown, source = 'schema', options: CheckPropertyOptions = {}): RecordSchema {
  const { schema, problems } = checkRecordSchema(input, options);
  if (!schema) throw SchemaInvalidError.fromProblems(source, problems);
  return schema;
}
