import { SragError } from '../errors/srag-error.ts';
import type { RecordSchema } from './attribute-definition.ts';

/**
 * For a surface that keeps one row per document and no table beside it (`srag_extract`, the
 * Sheets add-on): a schema that declares child entities is refused with a one-line error, rather
 * than having its lists silently left out.
 */
export function refuseChildEntities(schema: RecordSchema, surface: string, hint: string): void {
  const names = (schema.entities ?? []).map((entity) => `"${entity.name}"`);
  if (names.length === 0) return;
  throw new SragError({
    code: 'INPUT_INVALID',
    message: `${surface} keeps one row per document, so the schema's ${names.length === 1 ? 'entity' : 'entities'} ${names.join(', ')} (a table of ${names.length === 1 ? 'its' : 'their'} own) cannot be filled here`,
    hint,
  });
}
