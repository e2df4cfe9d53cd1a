import type { ChatRequest } from './chat-request.ts';
import { firstMessageOf } from './chat-request.ts';
import { answerChildItems } from './answer-child-items.ts';
import { answerProperty } from './answer-property.ts';
import type { GoldCorpus } from './load-gold-corpus.ts';
import { findBestRecord } from './match-gold.ts';
import { contentReply, invalidRequestReply, jsonContent, type Reply } from './reply.ts';
import { deepNesting, documentMarkers, hasDocumentMarker, unknownDocumentReply } from './respond-extract-record.ts';
import { readPromptEntities, readPromptPropertyNames } from './read-prompt-property-names.ts';
import { omitProperties } from './omit-properties.ts';
import { normalizeWhitespace } from './text-matching.ts';
import type { BatchSlip, ModelSlip } from './types.ts';

const deepValuePlaceholder = 'STAND-IN: DEEP-VALUE PLACEHOLDER';

/** Document markers that only batch requests react to. */
export const batchDocumentMarkers = {
  /** A batch holding this document gets a reply with no record for it (when the batch has others). */
  dropFromBatch: 'STAND-IN: DROP-FROM-BATCH',
} as const;

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
 * `batchSlips` then spoil the ids of a reply of two or more records.
 */
export function respondExtractRecordBatch(
  request: ChatRequest, corpora: GoldCorpus[], slips: readonly ModelSlip[] = [], slipProperties: readonly string[] = [], batchSlips: readonly BatchSlip[] = [],
): Reply {
  const systemMessage = firstMessageOf(request, 'system');
  const propertyNames = readPromptPropertyNames(systemMessage);
  const entities = readPromptEntities(systemMessage);
  if (!propertyNames) {
    return invalidRequestReply('the LLM stand-in found no "- \"name\" (kind): …" property lines under a "Properties" line in the extract-record-batch system message', 'messages');
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
    const idKey = propertyNames.includes('id') || entities.has('id') ? '_document' : 'id';
    const answer = propertyNames.map((name, position): [string, unknown] => {
      // A value no JSON writer can write: a placeholder here, spliced in below.
      if (position === 0 && document.text.includes(documentMarkers.deepValue)) return [name, deepValuePlaceholder];
      const property = answerProperty(name, record, document.text, slipProperties.length === 0 || slipProperties.includes(name) ? slips : [], position);
      return [name, withEvidence ? property : property.value];
    }).concat(answerChildItems(entities, record, document.text, withEvidence, slips, slipProperties));
    // A batch request is never a re-ask: a record of it with a property left out goes alone, and is re-asked there.
    records.push(Object.fromEntries([[idKey, document.id], ...omitProperties(answer, slips, slipProperties, false)]));
  }
  const content = jsonContent({ records: slipBatch(records, batchSlips) }, request.responseFormat, 'Here are the records:')
    .replaceAll(JSON.stringify(deepValuePlaceholder), `${'['.repeat(deepNesting)}${']'.repeat(deepNesting)}`);
  const allText = documents.map((document) => document.text).join('\n');
  if (allText.includes(documentMarkers.alwaysServerError)) return contentReply(content, { forcedFault: 'server_error' });
  if (allText.includes(documentMarkers.garbage)) return contentReply(content, { forcedFault: 'malformed_json' });
  return contentReply(content);
}

/** The records with the batch slips asked for made in them; a reply of one record is left alone. */
function slipBatch(records: Array<Record<string, unknown>>, batchSlips: readonly BatchSlip[]): Array<Record<string, unknown>> {
  if (records.length < 2 || batchSlips.length === 0) return records;
  const idKey = Object.keys(records[0]!)[0]!;
  let slipped = records.map((record) => Object.fromEntries(Object.entries(record)));
  if (batchSlips.includes('swap-ids')) {
    const [first, second] = [slipped[0]![idKey], slipped[1]![idKey]];
    slipped[0]![idKey] = second;
    slipped[1]![idKey] = first;
  }
  if (batchSlips.includes('shift-ids')) {
    const ids = slipped.map((record) => record[idKey]);
    slipped.forEach((record, index) => { record[idKey] = ids[(index + ids.length - 1) % ids.length]; });
  }
  if (batchSlips.includes('drop-id')) slipped = slipped.slice(0, -1);
  if (batchSlips.includes('extra-id')) {
    const highest = records.reduce((most, record) => Math.max(most, Number(record[idKey]) || 0), 0);
    slipped.push(Object.fromEntries([...Object.entries(slipped[0]!), [idKey, String(highest + 1)]]));
  }
  return slipped;
}
