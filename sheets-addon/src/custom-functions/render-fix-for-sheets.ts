import type { ErrorFix } from '../../../core/index.ts';
import { schemaHeader, sheetNames } from '../sheets/sheet-layout.ts';

/**
 * An error's fix in the spreadsheet's words: what the cell's formula or the Schema sheet needs,
 * and the menu item that does the rest (Extensions › srag). The add-on asks one range and grows
 * nothing at question time, so a fix the other surfaces give as an option is said here as the
 * edit that gets the same result.
 */
export function renderFixForSheets(fix: ErrorFix): string {
  switch (fix.kind) {
    case 'name-table':
      // Never from one range (it is the one table); said should a question meet several tables.
      return 'SRAG_ASK answers from the one table its records_range holds: pass the range of the records you mean, with its header row, e.g. Records!A1:R';
    case 'extend-schema':
      return `add a row for each to the ${sheetNames.schema} sheet (${schemaHeader.slice(0, 3).join(', ')}) and run Extensions › srag › Extract all rows, which extracts every document again for the new schema`;
    case 'answer-from-sql':
      return 'SRAG_ASK answers from the rows of the range alone';
    case 'price-model':
      // The add-on sets no spending limit; said should one come to need a price.
      return `the add-on knows no price for ${fix.model}: run without a spending limit`;
  }
}
