import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { splitDocument } from '../documents/split-document.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { answerFromContext, type ContextPassage } from './answer-from-context.ts';
import type { AnsweringSystem, ContextDocument } from './answering-system.ts';

export interface FullCorpusSystemOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  documents: ContextDocument[];
  /** The context budget for all documents together: the answer model's window less room for the reply. */
  contextTokens: number;
  /** Each document is cut to a prefix of at most this many tokens first; the paper uses 20,000. */
  documentTokens?: number;
  countTokens?: (text: string) => number;
  model?: string;
}

/**
 * The FullCorpus baseline (S-RAG paper §5.1): every document cut to a prefix of at most
 * `documentTokens` tokens, and as many of these prefixes as fit in `contextTokens`, in the
 * documents' order, concatenated into one context that every question gets. The first prefix that
 * does not fit ends the context, so what the model sees is a prefix of the corpus.
 */
export function createFullCorpusSystem(options: FullCorpusSystemOptions): AnsweringSystem {
  const countTokens = options.countTokens ?? approximateTokenCount;
  const documentTokens = options.documentTokens ?? 20_000;
  let passages: ContextPassage[] | undefined;
  let used = 0;
  return {
    name: 'full-corpus',
    describe: () =>
      `${passages?.length ?? 0} of ${options.documents.length} documents (each ≤${documentTokens} tokens) in ${used} of ${options.contextTokens} context tokens`,
    async prepare() {
      if (passages) return;
      passages = [];
      for (const document of options.documents) {
        const prefix = splitDocument(document.text, documentTokens, countTokens, { balanced: false })[0] ?? '';
        const size = countTokens(prefix);
        if (used + size > options.contextTokens) break;
        passages.push({ source: document.source, text: prefix });
        used += size;
      }
    },
    async answer(question, abortSignal) {
      await this.prepare(abortSignal);
      return answerFromContext({ client: options.client, prompts: options.prompts, question, passages: passages!, contextTokens: used, model: options.model, abortSignal });
    },
  };
}
