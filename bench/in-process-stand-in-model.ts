import type { LanguageModel, LanguageModelRequest, LanguageModelResponse } from '../core/index.ts';
import type { GoldCorpus } from '../tests/helpers/llm-stand-in/load-gold-corpus.ts';
import { respondExtractRecord } from '../tests/helpers/llm-stand-in/respond-extract-record.ts';
import { respondExtractRecordBatch } from '../tests/helpers/llm-stand-in/respond-extract-record-batch.ts';
import type { GeneratedDocument } from './generate-hotel-corpus.ts';

/**
 * The stand-in's extraction answers without HTTP, for the memory measurement: the page is found by
 * its heading in a map, so 10,000 documents cost 10,000 lookups rather than the server's scan of
 * every gold record per request, and the process holds srag alone, not a server as well.
 */
export function createInProcessStandInModel(documents: readonly GeneratedDocument[], schema: GoldCorpus['schema']): LanguageModel {
  const byName = new Map(documents.map((document) => [document.name, document.record]));
  return {
    modelId: 'srag-stand-in',
    async doGenerate(request: LanguageModelRequest): Promise<LanguageModelResponse> {
      const documentText = request.messages.find((message) => message.role === 'user')?.content ?? '';
      // Every page the message holds (a batch holds several), each found by its heading.
      const records = [...documentText.matchAll(/^# (.+)$/gm)].map((match) => byName.get(match[1]!)).filter((record) => record !== undefined);
      const corpus: GoldCorpus = { directory: '', schema, tableName: 'hotels', records: records as never[], questions: [] };
      const chat = { model: 'srag-stand-in', messages: request.messages, responseFormat: request.outputSchema ? 'json_schema' : undefined };
      const reply = documentText.startsWith('<document id="') ? respondExtractRecordBatch(chat, [corpus]) : respondExtractRecord(chat, [corpus]);
      if (reply.type !== 'content') throw new Error(`stand-in refused the request: ${reply.message}`);
      const promptCharacters = request.messages.reduce((sum, message) => sum + message.content.length, 0);
      return { text: reply.content, model: 'srag-stand-in', usage: { promptTokens: Math.ceil(promptCharacters / 4), completionTokens: Math.ceil(reply.content.length / 4) } };
    },
  };
}
