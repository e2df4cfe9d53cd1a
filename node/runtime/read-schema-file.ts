import { parseRecordSchemaText, type RecordSchema } from '../../core/index.ts';
import { readTextFile } from './read-text-file.ts';

/** A schema.json file, parsed and checked; every fault is one line naming the file. */
export async function readSchemaFile(path: string): Promise<RecordSchema> {
  const text = await readTextFile(path, { what: 'the schema file', hint: 'write one with `srag schema <glob> --questions FILE -o schema.json`' });
  return parseRecordSchemaText(text, path);
}
