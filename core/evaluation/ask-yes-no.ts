import type { ModelClient } from '../language-model/model-client.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import { readYesNo } from './read-yes-no.ts';

export interface YesNoJudgement {
  /** Undefined when the judge's reply said neither yes nor no, even when asked again. */
  verdict: boolean | undefined;
  reply: string;
  usage: TokenUsage;
}

/**
 * One Yes/No question to the judge. A reply without a yes or no is not cached and is asked once
 * more; a second such reply is returned with `verdict: undefined`, so that one confused judgement
 * does not stop an evaluation.
 */
export async function askYesNo(client: ModelClient, content: string, model: string | undefined): Promise<YesNoJudgement> {
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  let reply = '';
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const verdict = await client.generate({ model, messages: [{ role: 'user', content }] }, (response) => {
        reply = response.text.trim();
        if (!response.cached) {
          usage.promptTokens += response.usage.promptTokens;
          usage.completionTokens += response.usage.completionTokens;
        }
        const read = readYesNo(reply);
        if (read === undefined) throw new UnreadableJudgement();
        return read;
      }, { bypassCache: attempt > 0 });
      return { verdict, reply, usage };
    } catch (error) {
      if (!(error instanceof UnreadableJudgement)) throw error;
    }
  }
  return { verdict: undefined, reply, usage };
}

/** Thrown inside `accept` so that the client neither returns nor caches an unreadable reply. */
class UnreadableJudgement extends Error {}
