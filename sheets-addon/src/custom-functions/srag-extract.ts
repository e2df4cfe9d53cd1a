import { extractRecord, SragError } from '../../../core/index.ts';
import { createRequestLoop } from '../apps-script/create-request-loop.ts';
import { requireModelSettings } from '../apps-script/settings.ts';
import { createModelClient } from '../model/create-model-client.ts';
import { loadPromptLibrary } from '../model/load-prompt-library.ts';
import { toCellValue } from '../sheets/cell-values.ts';
import { cellDocumentText } from '../sheets/documents-sheet.ts';
import { schemaTitle } from '../sheets/read-schema-sheet.ts';
import { readSchemaTable } from '../sheets/schema-table.ts';
import { cellMessage } from './cell-message.ts';
import { customFunctionBudgetMilliseconds } from './custom-function-budget.ts';

type Cell = string | number | boolean;

/**
 * =SRAG_EXTRACT(text, schema_range): one record for the text, as one row of typed values in the
 * schema's attribute order (dates as YYYY-MM-DD text, missing values empty). Replies are cached by
 * content, so recalculation spends no tokens.
 */
export function sragExtract(text: unknown, schemaRange: unknown): Cell[][] {
  let secrets: Array<string | undefined> = [];
  let loop: ReturnType<typeof createRequestLoop> | undefined;
  try {
    const documentText = Array.isArray(text) ? String(text[0]?.[0] ?? '') : String(text ?? '');
    if (!documentText.trim()) return [['']];
    if (!Array.isArray(schemaRange) || !Array.isArray(schemaRange[0])) {
      throw new SragError({ code: 'INPUT_INVALID', message: 'schema_range must be the Schema table with its header row', hint: 'e.g. =SRAG_EXTRACT(B2, Schema!A1:E15)' });
    }
    const schema = readSchemaTable(schemaRange as unknown[][], schemaTitle());
    const settings = requireModelSettings('custom function');
    secrets = [settings.apiKey];
    const activeLoop = createRequestLoop({ budgetMilliseconds: customFunctionBudgetMilliseconds, maxBatchSize: 4 });
    loop = activeLoop;
    const client = createModelClient(settings, activeLoop, { maxConcurrency: 4, retry: { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 5_000 }, keepRepliesLonger: true });
    const record = activeLoop.run(() => extractRecord({
      client,
      prompts: loadPromptLibrary(),
      schema,
      text: cellDocumentText(documentText),
      model: settings.model,
    }), 'SRAG_EXTRACT');
    return [schema.attributes.map((attribute) => {
      const value = record.values[attribute.name] ?? null;
      return attribute.kind === 'date' ? (value ?? '') as Cell : toCellValue(value, attribute.kind);
    })];
  } catch (error) {
    return [[cellMessage(timeLimitOr(error, loop), secrets)]];
  }
}

/** An error caused by the loop's deadline reads as the time limit, whatever step noticed it. */
export function timeLimitOr(error: unknown, loop: { abortSignal: { aborted: boolean; reason?: string } } | undefined): unknown {
  if (loop?.abortSignal.aborted && loop.abortSignal.reason === 'deadline') {
    return new SragError({ code: 'TIME_LIMIT', message: 'the custom function ran out of time' });
  }
  return error;
}
