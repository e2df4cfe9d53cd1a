import type { ModelClient } from '../language-model/model-client.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import { askYesNo, type YesNoJudgement } from './ask-yes-no.ts';

export interface JudgeOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  question: string;
  goldAnswer: string;
  answer: string;
  /** The judging model; the client's default when absent (the paper judges with GPT-4o). */
  model?: string;
}

/** Answer Comparison (S-RAG paper §5.5, Appendix E prompt): is the answer correct given the gold? */
export function judgeAnswerComparison(options: JudgeOptions): Promise<YesNoJudgement> {
  const content = renderPrompt(options.prompts['judge-answer-comparison'], {
    query: options.question,
    gold_answer: options.goldAnswer,
    judged_answer: options.answer,
  });
  return askYesNo(options.client, content, options.model);
}
