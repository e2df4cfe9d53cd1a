import { statSync } from 'node:fs';
import { parseRecordSchemaText, refuseChildEntities, SragError, type RecordSchema } from '../../../core/index.ts';
import { readTextFileSync } from '../../runtime/read-text-file.ts';

const parsed = new Map<string, { schema: RecordSchema; modified: number }>();

/**
 * The `schema` argument of the srag SQL functions: a path to a schema file, or the JSON itself
 * (anything starting with `{`). Synchronous, because DuckDB's bind callback is. A file is read
 * again only when it changed.
 */
export function readSchemaArgument(argument: string | null | undefined): RecordSchema {
  if (argument === null || argument === undefined || argument.trim() === '') {
    throw new SragError({ code: 'INPUT_INVALID', message: 'srag_extract needs a schema', hint: "pass schema := 'schema.json' (a file) or the schema's JSON inline" });
  }
  const text = argument.trim();
  if (text.startsWith('{')) return oneRowPerDocument(parseRecordSchemaText(text, 'the inline schema'));
  const modified = modifiedTime(text);
  const known = parsed.get(text);
  if (known && modified !== undefined && known.modified === modified) return oneRowPerDocument(known.schema);
  const hint = 'paths are relative to the directory srag was started in; write a schema with `srag schema`';
  const schema = parseRecordSchemaText(readTextFileSync(text, { what: 'the schema file', hint }), text);
  if (modified !== undefined) parsed.set(text, { schema, modified });
  return oneRowPerDocument(schema);
}

/** srag_extract returns one row per document: a schema with child entities goes to `srag ingest`. */
function oneRowPerDocument(schema: RecordSchema): RecordSchema {
  refuseChildEntities(schema, 'srag_extract', 'ingest with `srag ingest DOCUMENTS --schema FILE`, which fills one table per entity, or remove "entities" from the schema');
  return schema;
}

/** The file's modification time, or undefined when it cannot be read (reading it then says why). */
function modifiedTime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
