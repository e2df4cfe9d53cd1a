import type { RecordSchema } from '../../../core/index.ts';
import { recordsHeader } from './records-sheet.ts';
import { schemaHeader, sheetNames } from './sheet-layout.ts';

/**
 * The ranges to pass to the custom functions for `schema`, as the sidebar shows them: the Records
 * table with its header and bookkeeping columns (`_status` makes SRAG_ASK count only done rows),
 * open-ended downwards so rows a batch adds are included; the Schema table with its header.
 * For the hotels example: `Records!A1:R` and `Schema!A1:E15`.
 */
export function formulaRanges(schema: RecordSchema): { records: string; schema: string } {
  return {
    records: `${sheetNames.records}!A1:${columnLetters(recordsHeader(schema).length)}`,
    schema: `${sheetNames.schema}!A1:${columnLetters(schemaHeader.length)}${schema.attributes.length + 1}`,
  };
}

/** 1 → A, 26 → Z, 27 → AA. */
function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}
