import { SchemaInvalidError } from '../errors/schema-invalid-error.ts';
import type { RecordSchema } from './attribute-definition.ts';
import { parseRecordSchema } from './parse-record-schema.ts';

/**
 * A schema as text (a schema.json file, an inline SQL argument, a pasted cell) into a
 * `RecordSchema`: invalid JSON is a `SchemaInvalidError` naming `source`, like every other fault.
 */
export function parseRecordSchemaText(text: string, source: string, { hint = 'fix the JSON syntax' }: { hint?: string } = {}): RecordSchema {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SchemaInvalidError({ message: `${source} is not valid JSON (${(error as Error).message})`, source, hint });
  }
  return parseRecordSchema(json, source);
}
