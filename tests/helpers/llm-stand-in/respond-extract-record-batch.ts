import type { ChatRequest } from './chat-request.ts';
import { firstMessageOf } from './chat-request.ts';
import { answerProperty } from './answer-property.ts';
import type { GoldCorpus } from './load-gold-corpus.ts';
import { findBestRecord } from './match-gold.ts';
import { contentReply, invalidRequestReply, jsonContent, type Reply } from './reply.ts';
import { documentMarkers, hasDocumentMarker, unknownDocumentReply } from './respond-extract-record.ts';
import { normalizeWhitespace } from './text-matching.ts';
import type { ModelSlip } from './types.ts';

/** Document markers that only batch requests react to. */
export const batchDocumentMarkers = {
  /** A batch holding this document gets a reply with no record for it (when the batch has others). */
  dropFromBatch: 'STAND-IN: DROP-FROM-BATCH',
} as const;

/** Property names from the first ```json block after the line "Schema (of one record):". */
function readBatchSchemaPropertyNames(systemMessage: string): string[] | undefined {
  const schemaLine = /^Schema \(of one record\):[ \t]*$/m.exec(systemMessage);
  if (!schemaLine) return undefined;
  const fenced = /```json[ \t]*\n([\s\S]*?)\n[ \t]*```/.exec(systemMessage.slice(schemaLine.index));
  if (!fenced) return undefined;
  try {
    const schema = JSON.parse(fenced[1]!) as { properties?: Record<string, unknown> };
    return schema.properties ? Object.keys(schema.properties) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `<document id="..." boundary="B">` … `</document boundary="B">` blocks of the user message, in
 * order. Only lines carrying the boundary count, as the prompt tells the model: a tag forged inside
 * a document's text is part of that text.
 */
export function readBatchDocuments(userMessage: string): Array<{ id: string; text: string }> {
  const blocks = /^<document id="([^"]*)" boundary="([^"]+)">\n([\s\S]*?)\n<\/document boundary="\2">$/gm;
  return [...userMessage.matchAll(blocks)].map((match) => ({ id: match[1]!, text: match[3]! }));
}

/**
 * extract-record-batch: one record per `<document id>` block, each answered as the single-document
 * responder would (values only where the gold quote occurs in that very document). Documents with
 * the single-document fault markers fault the whole batch; `dropFromBatch` leaves its record out.
 * A document no gold record matches makes the whole batch a refusal (an error reply naming it).
 */
export function respondExtractRecordBatch(request: ChatRequest, corpora: GoldCorpus[], slips: readonly ModelSlip[] = [], slipProperties: readonly string[] = []): Reply {
  const systemMessage = firstMessageOf(request, 'system');
  const propertyNames = readBatchSchemaPropertyNames(systemMessage);
  if (!propertyNames) {
    return invalidRequestReply('the LLM stand-in found no ```json schema block after a "Schema (of one record):" line in the extract-record-batch system message', 'messages');
  }
  const documents = readBatchDocuments(firstMessageOf(request, 'user'));
  if (documents.length === 0) return invalidRequestReply('the LLM stand-in found no <document id="..." boundary="..."> block in the extract-record-batch user message', 'messages');
  const withEvidence = systemMessage.includes('"quote"');
  const records: Array<Record<string, unknown>> = [];
  for (const document of documents) {
    if (documents.length > 1 && document.text.includes(batchDocumentMarkers.dropFromBatch)) continue;
    const record = findBestRecord(corpora, normalizeWhitespace(document.text));
    if (!record && !hasDocumentMarker(document.text) && !document.text.includes(batchDocumentMarkers.dropFromBatch)) {
      return unknownDocumentReply(document.text, corpora, document.id);
    }
    // The id key the prompt names ("id", or "_document" when a property is called id); entries, not
    // assignments, since a property may be named "__proto__".
    const idKey = propertyNames.includes('id') ? '_document' : 'id';
    records.push(Object.fromEntries([[idKey, document.id], ...propertyNames.map((name, position) => {
      const property = answerProperty(name, record, document.text, slipProperties.length === 0 || slipProperties.includes(name) ? slips : [], position);
      return [name, withEvidence ? property : property.value];
    })]));
  }
  const content = jsonContent({ records }, request.responseFormat, 'Here are the records:');
  const allText = documents.map((document) => document.text).join('\n');
  if (allText.includes(documentMarkers.alwaysServerError)) return contentReply(content, { forcedFault: 'server_error' });
  if (allText.includes(documentMarkers.garbage)) return contentReply(content, { forcedFault: 'malformed_json' });
  return contentReply(content);
}
