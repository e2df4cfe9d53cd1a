import { ModelOutputInvalidError } from '../errors/model-output-invalid-error.ts';
import type { ChatMessage, LanguageModelRequest, TokenUsage } from '../ports/language-model.ts';
import type { ModelClient } from './model-client.ts';
import { parseJsonText } from './parse-json-text.ts';
import { addUsage } from './add-usage.ts';

/** Problems with a parsed reply, one line each; empty means valid. */
export type ObjectValidator<T> = (value: unknown) => { value: T } | { problems: string[] };

export interface GenerateObjectResult<T> {
  value: T;
  usage: TokenUsage;
  /** Whether the reply came from the cache (no tokens spent). */
  cached: boolean;
}

/** Replies that are not JSON at all (truncated, prose) are asked again unchanged this many times. */
const unparseableRetries = 2;

/**
 * The one place model output becomes a typed value: JSON text → validator → one re-ask carrying the
 * validation problems → `ModelOutputInvalidError` with the raw text as evidence.
 *
 * Unparseable replies are transport-like faults (a cut connection, a truncated body), so the same
 * request is repeated; a reply that parses but does not validate gets one re-ask that shows the
 * model its previous answer and what was wrong with it.
 */
export async function generateObject<T>({
  client,
  request,
  validate,
  validateAfterReAsk = validate,
  step,
}: {
  client: ModelClient;
  request: LanguageModelRequest;
  validate: ObjectValidator<T>;
  /** A more lenient check for the re-asked reply (e.g. accept bad values as NULL plus an issue). */
  validateAfterReAsk?: ObjectValidator<T>;
  /** Names the pipeline step in errors, e.g. `extracting hotel-003.html`. */
  step: string;
}): Promise<GenerateObjectResult<T>> {
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  let cached = true;
  // A reply that parses is a real answer and is cached even when it fails validation, so that a
  // rerun replays the same re-ask from the cache; an unparseable reply throws and is never cached.
  // Nor is the re-ask's reply when it fails too (`last`): the exchange failed, and a retry of its
  // document (--retry-failed) asks again rather than replaying the same failure without a call. One
  // that is in the cache already (a Batch API reply is put there before it is read) is used as it
  // is: refetched, it would go into another batch, and so on for every collection.
  const attempt = (messages: ChatMessage[], bypassCache: boolean, check: ObjectValidator<T>, last: boolean) =>
    client.generate({ ...request, messages }, (response) => {
      if (!response.cached) {
        cached = false;
        addUsage(usage, response.usage);
      }
      const parsed = parseJsonText(response.text);
      if (!parsed.ok) throw new ModelOutputInvalidError({ step, text: response.text, problems: [parsed.problem] });
      const outcome = check(parsed.value);
      if (!('problems' in outcome)) return { ok: true as const, value: outcome.value };
      const error = new ModelOutputInvalidError({ step, text: response.text, problems: outcome.problems });
      if (last && !response.cached) throw new FailedExchange(error);
      return { ok: false as const, error };
    }, { bypassCache });

  let first: Awaited<ReturnType<typeof attempt>> | undefined;
  for (let round = 0; first === undefined; round += 1) {
    try {
      first = await attempt(request.messages, round > 0, validate, false);
    } catch (error) {
      if (!ModelOutputInvalidError.isInstance(error) || round >= unparseableRetries) throw error;
    }
  }
  if (first.ok) return { value: first.value, usage, cached };

  const reAsk: ChatMessage[] = [
    ...request.messages,
    { role: 'assistant', content: first.error.text },
    {
      role: 'user',
      content: `Your previous answer had validation errors:\n${first.error.problems.map((problem) => `- ${problem}`).join('\n')}\n\nReply again with the corrected JSON only.`,
    },
  ];
  let second: Awaited<ReturnType<typeof attempt>> | undefined;
  for (let round = 0; second === undefined; round += 1) {
    try {
      second = await attempt(reAsk, round > 0, validateAfterReAsk, true);
    } catch (error) {
      if (error instanceof FailedExchange) throw error.error;
      if (!ModelOutputInvalidError.isInstance(error) || round >= unparseableRetries) throw error;
    }
  }
  if (second.ok) return { value: second.value, usage, cached };
  throw second.error;
}

/** Thrown out of the cache's `accept` so that the re-ask's invalid reply is not cached; carries the error. */
class FailedExchange {
  constructor(readonly error: ModelOutputInvalidError) {}
}
