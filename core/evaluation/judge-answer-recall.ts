import { generateObject } from '../language-model/generate-object.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import { askYesNo } from './ask-yes-no.ts';
import type { JudgeOptions } from './judge-answer-comparison.ts';

export interface ClaimJudgement {
  claim: string;
  /** Undefined when the judge said neither yes nor no; counted as not covered. */
  supported: boolean | undefined;
}

export interface RecallJudgement {
  /** Covered claims ÷ claims, from 0 to 1. */
  recall: number;
  claims: ClaimJudgement[];
  usage: TokenUsage;
}

const claimsSchema = {
  name: 'claims',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['claims'],
    properties: { claims: { type: 'array', items: { type: 'string' } } },
  },
};

/**
 * Answer Recall (S-RAG paper §5.5): the judge splits the gold answer into claims, then decides for
 * each claim whether the answer covers it. The claims depend only on the question and the gold, so
 * with a response cache every system after the first reuses them.
 */
export async function judgeAnswerRecall(options: JudgeOptions): Promise<RecallJudgement> {
  const { client, prompts, question, goldAnswer, answer, model } = options;
  const split = await generateObject({
    client,
    step: `splitting the gold answer of "${question}" into claims`,
    request: {
      model,
      messages: [{ role: 'user', content: renderPrompt(prompts['judge-answer-recall-claims'], { query: question, gold_answer: goldAnswer }) }],
      outputSchema: claimsSchema,
    },
    validate: readClaims,
  });
  const usage: TokenUsage = { ...split.usage };
  const claims = await Promise.all(split.value.map(async (claim): Promise<ClaimJudgement> => {
    const content = renderPrompt(prompts['judge-claim-supported'], { query: question, claim, judged_answer: answer });
    const judgement = await askYesNo(client, content, model);
    usage.promptTokens += judgement.usage.promptTokens;
    usage.completionTokens += judgement.usage.completionTokens;
    return { claim, supported: judgement.verdict };
  }));
  const covered = claims.filter((claim) => claim.supported === true).length;
  return { recall: covered / claims.length, claims, usage };
}

function readClaims(value: unknown): { value: string[] } | { problems: string[] } {
  const claims = typeof value === 'object' && value !== null ? (value as { claims?: unknown }).claims : undefined;
  if (!Array.isArray(claims) || claims.length === 0) return { problems: ['the reply must be {"claims": [...]} with at least one claim'] };
  const texts = claims.filter((claim): claim is string => typeof claim === 'string' && claim.trim() !== '').map((claim) => claim.trim());
  if (texts.length !== claims.length) return { problems: ['every claim must be a non-empty string'] };
  return { value: texts };
}
