import type { ModelClient } from '../language-model/model-client.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import type { SystemAnswer } from './answering-system.ts';

/** A stretch of a document put into a baseline's context. */
export interface ContextPassage {
  source: string;
  /** 1-based part number when the document was cut into chunks. */
  part?: number;
  text: string;
}

/**
 * The baselines' answer step: the question and the passages, each between delimiter lines that
 * name its document, in one prompt; the model's reply is the answer.
 */
export async function answerFromContext(options: {
  client: ModelClient;
  prompts: PromptLibrary;
  question: string;
  passages: ContextPassage[];
  contextTokens: number;
  model?: string;
  abortSignal?: CancellationSignal;
}): Promise<SystemAnswer> {
  const context = renderContextPassages(options.passages);
  const response = await options.client.generate({
    model: options.model,
    messages: [{ role: 'user', content: renderPrompt(options.prompts['answer-from-context'], { question: options.question, context: context || '(empty)' }) }],
    abortSignal: options.abortSignal,
  }, (reply) => reply);
  return {
    answer: response.text.trim(),
    contextSources: [...new Set(options.passages.map((passage) => passage.source))],
    contextTokens: options.contextTokens,
    // Tokens as the endpoint reported them, replayed from the cache on a rerun: what the answer costs.
    usage: { promptTokens: response.usage.promptTokens, completionTokens: response.usage.completionTokens, calls: response.cached ? 0 : 1 },
  };
}

/** Passages as a prompt's context: each between delimiter lines naming its document (and part). */
export function renderContextPassages(passages: readonly ContextPassage[]): string {
  return passages
    .map((passage) => `<document source="${passage.source}"${passage.part ? ` part="${passage.part}"` : ''}>\n${passage.text}\n</document>`)
    .join('\n\n');
}
