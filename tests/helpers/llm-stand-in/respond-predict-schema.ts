import type { ChatRequest } from './chat-request.ts';
import type { GoldCorpus } from './load-gold-corpus.ts';
import { findBestCorpus, noGoldReply } from './match-gold.ts';
import { contentReply, jsonContent, type Reply } from './reply.ts';
import { normalizeWhitespace } from './text-matching.ts';

/** The gold schema without every third property (the 3rd, 6th, ...), so refinement has work to do. */
function withoutEveryThirdProperty(schema: GoldCorpus['schema']): Record<string, unknown> {
  const kept = Object.entries(schema.properties).filter((_, index) => index % 3 !== 2);
  const keptNames = new Set(kept.map(([name]) => name));
  const result: Record<string, unknown> = { ...schema, properties: Object.fromEntries(kept) };
  if (Array.isArray(schema.required)) result.required = schema.required.filter((name) => keptNames.has(name as string));
  return result;
}

function corpusOf(request: ChatRequest, corpora: GoldCorpus[]): GoldCorpus | undefined {
  const allText = request.messages.map((message) => message.content).join('\n');
  return findBestCorpus(corpora, normalizeWhitespace(allText));
}

/**
 * Round 1: the corpus the sample documents come from, with a third of its properties missing.
 * Documents of no known corpus are refused (an error reply), never given a made-up schema.
 */
export function respondPredictSchemaFirst(request: ChatRequest, corpora: GoldCorpus[]): Reply {
  const corpus = corpusOf(request, corpora);
  if (!corpus) return noGoldReply('schema for these sample documents (none matches a gold record)', corpora);
  return contentReply(jsonContent(withoutEveryThirdProperty(corpus.schema), request.responseFormat, 'Here is the JSON schema for these documents:'));
}

/** Rounds 2..N: the full gold schema of the corpus the documents come from. */
export function respondRefineSchema(request: ChatRequest, corpora: GoldCorpus[]): Reply {
  const corpus = corpusOf(request, corpora);
  if (!corpus) return noGoldReply('schema for these sample documents (none matches a gold record)', corpora);
  return contentReply(jsonContent(corpus.schema, request.responseFormat, 'Here is the refined JSON schema:'));
}
