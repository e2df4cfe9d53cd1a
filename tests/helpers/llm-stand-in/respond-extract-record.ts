import type { ChatRequest } from './chat-request.ts';
import { firstMessageOf } from './chat-request.ts';
import { answerChildItems } from './answer-child-items.ts';
import { answerProperty } from './answer-property.ts';
import type { GoldCorpus } from './load-gold-corpus.ts';
import { findBestRecord, noGoldReply } from './match-gold.ts';
import { contentReply, invalidRequestReply, jsonContent, type Reply } from './reply.ts';
import { readPromptEntities, readPromptPropertyNames } from './read-prompt-property-names.ts';
import { omitProperties } from './omit-properties.ts';
import { normalizeWhitespace } from './text-matching.ts';
import type { ModelSlip } from './types.ts';

/** Document markers that make a test document misbehave on purpose. */
export const documentMarkers = {
  alwaysServerError: 'STAND-IN: ALWAYS-500',
  garbage: 'STAND-IN: GARBAGE',
  wrongTypes: 'STAND-IN: WRONG-TYPES',
  /** The first property's value becomes a list nested 100,000 levels deep (no JSON.stringify can write it). */
  deepValue: 'STAND-IN: DEEP-VALUE',
  /**
   * A document that states none of the schema's attributes, on purpose: the stand-in answers a
   * record of nulls, as a real model does, instead of refusing a document it has no gold for.
   */
  noValues: 'STAND-IN: NO-VALUES',
} as const;

/** Nesting of the `deepValue` reply: deeper than any recursive JSON writer's stack. */
export const deepNesting = 100_000;

/** Whether the text carries one of the markers above: then it is a test document that knows what it wants. */
export function hasDocumentMarker(text: string): boolean {
  return Object.values(documentMarkers).some((marker) => text.includes(marker));
}

/** The refusal for a document no gold record matches, quoting how it begins so a reader sees which one. */
export function unknownDocumentReply(documentText: string, corpora: GoldCorpus[], id?: string): Reply {
  const text = normalizeWhitespace(documentText.replace(/^<document[^>]*>/, '').replace(/<\/document>\s*$/, ''));
  const beginning = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return noGoldReply(`record for the document ${id === undefined ? '' : `"${id}" `}that begins ${JSON.stringify(beginning)}`, corpora);
}

/** A re-ask after validation errors: the model's previous reply followed by a user message. */
function isReask(request: ChatRequest): boolean {
  const assistantIndex = request.messages.findIndex((message) => message.role === 'assistant');
  return assistantIndex >= 0 && request.messages.slice(assistantIndex + 1).some((message) => message.role === 'user');
}

/**
 * Answers as a careful model would from the gold record the document matches: the value as the
 * document writes it (`raw`), and only for properties whose quote occurs in this very message
 * (one part of a split document sees only its own values); then the `slips` asked for. A document
 * no gold record matches is refused with an error reply, never answered with a record of nulls.
 */
export function respondExtractRecord(request: ChatRequest, corpora: GoldCorpus[], slips: readonly ModelSlip[] = [], slipProperties: readonly string[] = []): Reply {
  const systemMessage = firstMessageOf(request, 'system');
  const documentText = firstMessageOf(request, 'user');
  const propertyNames = readPromptPropertyNames(systemMessage);
  if (!propertyNames) {
    return invalidRequestReply('the LLM stand-in found no "- \"name\" (kind): …" property lines under a "Properties" line in the extract-record system message', 'messages');
  }
  const withEvidence = systemMessage.includes('"quote"');
  const wrongTypes = documentText.includes(documentMarkers.wrongTypes) && !isReask(request);
  const record = findBestRecord(corpora, normalizeWhitespace(documentText));
  // A later part of a split document may hold none of its record's quotes; its nulls are then true.
  const laterPart = Number(/^<document part="(\d+)"/.exec(documentText)?.[1] ?? 1) > 1;
  if (!record && !laterPart && !hasDocumentMarker(documentText)) return unknownDocumentReply(documentText, corpora);

  // Entries, not assignments: a property may be named "__proto__".
  const answer = Object.fromEntries(omitProperties(propertyNames.map((name, position): [string, unknown] => {
    const property = answerProperty(name, record, documentText, slipProperties.length === 0 || slipProperties.includes(name) ? slips : [], position);
    // An object is the wrong type for every flat property; the re-ask gets the right answer.
    const value = wrongTypes ? { value: property.value, note: 'see document' } : property.value;
    return [name, withEvidence ? { value, quote: property.quote } : value];
  }).concat(answerChildItems(readPromptEntities(systemMessage), record, documentText, withEvidence, slips, slipProperties)), slips, slipProperties, isReask(request)));

  let content = jsonContent(answer, request.responseFormat, 'Here is the record:');
  if (documentText.includes(documentMarkers.deepValue) && propertyNames[0] !== undefined) {
    // Spliced into the text by hand: the value cannot be written by JSON.stringify, only read.
    const first = JSON.stringify(propertyNames[0]);
    content = content.replace(`{${first}:`, `{${first}:${'['.repeat(deepNesting)}${']'.repeat(deepNesting)},"_replaced":`);
  }
  if (documentText.includes(documentMarkers.alwaysServerError)) return contentReply(content, { forcedFault: 'server_error' });
  if (documentText.includes(documentMarkers.garbage)) return contentReply(content, { forcedFault: 'malformed_json' });
  return contentReply(content);
}
