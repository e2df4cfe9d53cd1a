import { SragError } from '../../../core/index.ts';
import { readDocuments } from '../sheets/documents-sheet.ts';
import { withDocumentLock } from '../sheets/records-sheet.ts';
import { sheetNames } from '../sheets/sheet-layout.ts';

export interface PickedFile {
  id: string;
  name: string;
}

/**
 * Files picked in Add files from Drive become Documents rows: the file name as source, a Drive
 * link as text (read at extraction through the Drive API). A file already in the sheet is
 * skipped; a name another row uses gets the start of the file id appended, as sources are unique.
 */
export function addDriveFiles(files: PickedFile[]): { added: number; skipped: number } {
  const picked = (Array.isArray(files) ? files : []).map((file) => ({ id: String(file?.id ?? ''), name: String(file?.name ?? '').trim() }));
  const bad = picked.find((file) => !/^[A-Za-z0-9_-]{10,}$/.test(file.id));
  if (bad) throw new SragError({ code: 'INPUT_INVALID', message: `the Picker returned a file without a usable id (${JSON.stringify(bad.id)})`, hint: 'pick the files again' });
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return withDocumentLock(() => {
    const documents = readDocuments(spreadsheet);
    const sources = new Set(documents.map((document) => document.source));
    const fileIds = new Set(documents.map((document) => document.driveFileId).filter((id): id is string => id !== undefined));
    const rows: string[][] = [];
    for (const file of picked) {
      if (fileIds.has(file.id)) continue;
      fileIds.add(file.id);
      const name = file.name || file.id;
      const source = sources.has(name) ? `${name} (${file.id.slice(0, 8)})` : name;
      sources.add(source);
      rows.push([source, `https://drive.google.com/file/d/${file.id}/view`]);
    }
    if (rows.length) {
      const sheet = spreadsheet.getSheetByName(sheetNames.documents)!;
      // Plain text: a file named "2024" or "TRUE" stays a name.
      sheet.getRange(Math.max(sheet.getLastRow(), 1) + 1, 1, rows.length, 2).setNumberFormat('@').setValues(rows);
    }
    return { added: rows.length, skipped: picked.length - rows.length };
  });
}
