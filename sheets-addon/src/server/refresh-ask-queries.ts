import { createPinnedQueries } from '../custom-functions/pinned-queries.ts';

export interface RefreshedQueries {
  /** Pinned queries forgotten. */
  forgotten: number;
  /** =SRAG_ASK formulas entered again, so Sheets recalculates them. */
  formulas: number;
}

const askFormula = /\bSRAG_ASK\s*\(/i;

/**
 * Menu: Refresh SRAG_ASK queries. Forgets every pinned query, then enters each =SRAG_ASK formula
 * again (cleared, then restored): Sheets recalculates a custom function only when its arguments
 * change, and on that recalculation each question gets a query written from the current rows and
 * their statistics (one model call each, or none when the prompt is unchanged and still cached).
 */
export function refreshAskQueries(): RefreshedQueries {
  const forgotten = createPinnedQueries(PropertiesService.getDocumentProperties()).forgetAll();
  const cells: Array<{ range: GoogleAppsScript.Spreadsheet.Range; formula: string }> = [];
  for (const sheet of SpreadsheetApp.getActiveSpreadsheet().getSheets()) {
    if (sheet.getLastRow() === 0 || sheet.getLastColumn() === 0) continue;
    sheet.getDataRange().getFormulas().forEach((line, row) => line.forEach((formula, column) => {
      if (askFormula.test(formula)) cells.push({ range: sheet.getRange(row + 1, column + 1), formula });
    }));
  }
  for (const cell of cells) cell.range.setFormula('');
  SpreadsheetApp.flush();
  for (const cell of cells) cell.range.setFormula(cell.formula);
  return { forgotten, formulas: cells.length };
}
