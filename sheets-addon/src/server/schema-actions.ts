import { documentText, parseRecordSchemaText, predictSchema, refuseChildEntities, SragError, type RecordSchema } from '../../../core/index.ts';
import { createRequestLoop } from '../apps-script/create-request-loop.ts';
import { readDriveFile } from '../apps-script/read-drive-file.ts';
import { requireModelSettings } from '../apps-script/settings.ts';
import { createModelClient } from '../model/create-model-client.ts';
import { loadPromptLibrary } from '../model/load-prompt-library.ts';
import { readDocuments } from '../sheets/documents-sheet.ts';
import { formulaRanges } from '../sheets/formula-ranges.ts';
import { schemaTableValues } from '../sheets/schema-table.ts';
import { documentPropertyKeys, sheetNames } from '../sheets/sheet-layout.ts';

export interface PredictSchemaRequest {
  /** Questions the records should answer (the S-RAG paper, §3.2.1, uses about ten). */
  questions: string[];
  /** Sample documents, from the top of the Documents sheet (the paper uses twelve). */
  sampleSize?: number;
  iterations?: number;
}

/** What the sidebar shows of a schema just written: its attributes and the ranges for the formulas. */
export interface SchemaSummary {
  title: string;
  attributes: string[];
  ranges: { records: string; schema: string };
}

/** Predict a schema from sample documents and questions, and write it to the Schema sheet. */
export function predictSchemaFromDocuments(request: PredictSchemaRequest): SchemaSummary {
  const settings = requireModelSettings('sidebar');
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sample = readDocuments(spreadsheet).slice(0, Math.max(1, Math.min(20, request.sampleSize ?? 12)));
  if (sample.length === 0) throw new SragError({ code: 'NO_DOCUMENTS', message: 'the Documents sheet has no documents', hint: 'add a source and a text per row first' });
  const questions = (request.questions ?? []).map((question) => String(question).trim()).filter(Boolean);
  const loop = createRequestLoop({ budgetMilliseconds: 5 * 60_000, maxBatchSize: 4 });
  const client = createModelClient(settings, loop, { maxConcurrency: 4, retry: { maxRetries: 4, baseDelayMs: 1_000, maxDelayMs: 20_000 }, keepRepliesLonger: false });
  const predicted = loop.run(async () => {
    const documents = [];
    for (const document of sample) {
      const text = document.driveFileId === undefined
        ? documentText(document.source, document.text)
        : await readDriveFile(loop, document.driveFileId, document.source).then((file) => documentText(file.name, file.content));
      documents.push({ name: document.source, text });
    }
    return predictSchema({ client, prompts: loadPromptLibrary(), documents, questions, iterations: request.iterations ?? 4, model: settings.model });
  }, 'predicting the schema');
  writeSchemaSheet(spreadsheet, predicted.schema);
  return summarize(predicted.schema);
}

/** A schema JSON (as `srag schema` writes it) into the Schema sheet. */
export function importSchemaJson(text: string): SchemaSummary {
  const schema = parseRecordSchemaText(String(text), 'the pasted schema', { hint: 'paste the whole schema.json file' });
  refuseChildEntities(schema, 'The Sheets add-on', 'remove "entities" from the schema, or ingest the documents with the srag CLI (srag ingest), which fills one table per entity');
  writeSchemaSheet(SpreadsheetApp.getActiveSpreadsheet(), schema);
  return summarize(schema);
}

function summarize(schema: RecordSchema): SchemaSummary {
  return { title: schema.title, attributes: schema.attributes.map((attribute) => attribute.name), ranges: formulaRanges(schema) };
}

function writeSchemaSheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, schema: RecordSchema): void {
  const sheet = spreadsheet.getSheetByName(sheetNames.schema) ?? spreadsheet.insertSheet(sheetNames.schema);
  const values = schemaTableValues(schema);
  sheet.clear();
  sheet.getRange(1, 1, values.length, values[0]!.length).setNumberFormat('@').setValues(values).setWrap(true).setVerticalAlignment('top');
  sheet.getRange(1, 1, 1, values[0]!.length).setFontWeight('bold');
  sheet.setFrozenRows(1);
  PropertiesService.getDocumentProperties().setProperty(documentPropertyKeys.schemaTitle, schema.title);
}

/** Documents and Schema sheets with their headers, for a fresh spreadsheet. */
export function setUpSheets(): { created: string[] } {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const created: string[] = [];
  if (!spreadsheet.getSheetByName(sheetNames.documents)) {
    const sheet = spreadsheet.insertSheet(sheetNames.documents);
    sheet.getRange(1, 1, 1, 2).setValues([['source', 'text']]).setFontWeight('bold');
    sheet.setFrozenRows(1);
    created.push(sheetNames.documents);
  }
  if (!spreadsheet.getSheetByName(sheetNames.schema)) {
    const sheet = spreadsheet.insertSheet(sheetNames.schema);
    sheet.getRange(1, 1, 1, 5).setValues([['attribute', 'type', 'description', 'examples', 'unit']]).setFontWeight('bold');
    sheet.setFrozenRows(1);
    created.push(sheetNames.schema);
  }
  return { created };
}
