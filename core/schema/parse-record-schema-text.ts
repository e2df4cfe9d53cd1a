import { SchemaInvalidError } from '../errors/schema-invalid-error.ts';
import type { RecordSchema } from './attribute-definition.ts';
import { checkRecordSchema } from './check-record-schema.ts';
import { findDuplicateJsonKeys } from './find-duplicate-json-keys.ts';
import type { SchemaProblem } from './schema-problem.ts';

/**
 * A schema as text (a schema.json file, an inline SQL argument, a pasted cell) into a
 * `RecordSchema`: JSON syntax errors with their line and column, keys written twice (which
 * JSON.parse would let the last win silently) and every problem of the schema itself, all in one
 * `SchemaInvalidError`. `source` names the text in messages; `hint` is the fix for broken JSON.
 */
export function parseRecordSchemaText(text: string, source: string, { hint = 'fix the JSON syntax' }: { hint?: string } = {}): RecordSchema {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw SchemaInvalidError.fromProblems(source, [{ code: 'invalid_json', problem: `is not valid JSON: ${describeSyntaxError(text, error as Error)}`, fix: hint }]);
  }
  const duplicates: SchemaProblem[] = findDuplicateJsonKeys(text).map(({ path, key }) => {
    const fix = 'keep one of them: JSON keeps only the last, silently';
    if (path.length === 0) return { code: 'duplicate_key', key, problem: 'is written twice', fix };
    if (path.length === 1 && path[0] === 'properties') return { code: 'duplicate_key', property: key, problem: 'is defined twice', fix: 'remove or rename one of them: JSON keeps only the last, silently' };
    if (path[0] === 'properties') return { code: 'duplicate_key', property: path[1]!, key: [...path.slice(2), key].join('.'), problem: 'is written twice', fix };
    return { code: 'duplicate_key', key: [...path, key].join('.'), problem: 'is written twice', fix };
  });
  const { schema, problems } = checkRecordSchema(json);
  if (duplicates.length > 0 || !schema) throw SchemaInvalidError.fromProblems(source, [...duplicates, ...problems]);
  return schema;
}

/** "Unexpected token } in JSON at position 120" → "… (line 7, column 3)". */
function describeSyntaxError(text: string, error: Error): string {
  const position = /at position (\d+)/.exec(error.message)?.[1];
  const message = error.message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
  if (position === undefined) return message;
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const column = Number(position) - before.lastIndexOf('\n');
  return `${message} (line ${line}, column ${column})`;
}
