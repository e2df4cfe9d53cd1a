import { statSync } from 'node:fs';
import { parseRecordSchemaText, SchemaInvalidError, SragError, type RecordSchema } from '../../core/index.ts';
import { readTextFile } from '../runtime/read-text-file.ts';
import type { ServedFolders } from './served-folders.ts';

/** Larger than any schema: a request's body is limited to 1 MB too. */
const maximumSchemaBytes = 1_000_000;

/**
 * The schema file a request names, read only from the served folders. Its faults are named
 * without its content — no excerpt of the JSON parser's, no key or property listed back — so that
 * naming a file that is not a schema cannot read it (`srag ingest --schema` on the command line
 * names every problem: its user owns the file).
 */
export async function readServedSchema(path: string, folders: ServedFolders): Promise<RecordSchema> {
  const file = folders.confine(path, 'the schema file');
  const hint = 'send the schema itself as "schema" to have each problem named, or check the file with srag ingest --dry-run on the server';
  const size = statSync(file, { throwIfNoEntry: false });
  if (size && (!size.isFile() || size.size > maximumSchemaBytes)) {
    throw new SragError({ code: 'SCHEMA_INVALID', message: `the schema file ${path} is ${size.isFile() ? `larger than ${maximumSchemaBytes} bytes` : 'not a file'}`, hint });
  }
  const text = await readTextFile(file, { what: 'the schema file', shownAs: path, hint: 'name a schema file under the served folder (srag schema writes one)' });
  try {
    return parseRecordSchemaText(text, path);
  } catch (error) {
    if (!SchemaInvalidError.isInstance(error)) throw error;
    const notJson = error.problems.some((problem) => problem.code === 'invalid_json');
    const problems = error.problems.length;
    throw new SragError({
      code: 'SCHEMA_INVALID',
      message: `the schema file ${path} is ${notJson ? 'not JSON' : `not a valid srag schema (${problems} ${problems === 1 ? 'problem' : 'problems'})`}; a file read on the server is not quoted back`,
      hint,
    });
  }
}
