import { SragError } from '../../core/index.ts';
import type { TableGrower } from '../ports/table-grower.ts';
import type { RecordTable } from '../tables/record-table.ts';

/**
 * The table a question grows (`--extend-schema`, `extend := true`): the first chosen table that
 * `srag ingest` made, whose documents its ingestion log knows. Tables made otherwise have no
 * documents srag can extract from again, and the refusal says what can be done instead.
 */
export function tableToGrow(chosen: readonly RecordTable[], question: string, grower: TableGrower | undefined): RecordTable {
  const table = chosen.find((candidate) => candidate.madeBy === 'srag ingest');
  if (table && grower) return table;
  if (table) throw new SragError({ code: 'INPUT_INVALID', message: 'this surface cannot grow a table', hint: 'grow it with srag ask --extend-schema' });
  const names = chosen.map((candidate) => `"${candidate.name}" (made by ${candidate.madeBy})`).join(', ');
  throw new SragError({
    code: 'INPUT_INVALID',
    message: `extending the schema for "${question}" grows a table srag ingest made, whose documents it knows; the question is asked of ${names}`,
    hint: chosen.some((candidate) => candidate.madeBy === 'srag_extract')
      ? 'extract the attributes with srag_extract and a schema that names them, or ingest the documents with srag ingest and ask again'
      : 'import the table again from a file with what is missing (srag import --replace), or ask a table made from documents',
  });
}
