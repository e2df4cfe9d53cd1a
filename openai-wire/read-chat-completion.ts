import { approximateTokenCount, type ChatMessage, type LanguageModelResponse, type TokenUsage } from '../core/index.ts';
import type { EndpointFailures } from './endpoint-failures.ts';

/** A message's content: text, or a list of parts. */
type MessageContent = string | Array<{ type?: string; text?: unknown }> | null | undefined;

/** Only the fields read from a chat completion. */
export interface ChatCompletionBody {
  model?: string;
  choices?: Array<{
    finish_reason?: string | null;
    message?: {
      content?: MessageContent;
      refusal?: string | null;
      tool_calls?: Array<{ function?: { name?: string; arguments?: string } }> | null;
      function_call?: { name?: string; arguments?: string } | null;
    };
  }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
  /** OpenRouter's error in a 200 reply, when the provider failed after the request was accepted. */
  error?: unknown;
}

/**
 * A chat completion as core's port answers it (also each line of a Batch API output file). The
 * replies real endpoints give besides plain text each become text or an error here:
 * - `content` as a list of parts (text parts joined; reasoning or thinking parts left out);
 * - `message.refusal` (a structured-output refusal), `finish_reason: "content_filter"` and
 *   `finish_reason: "length"` (reasoning may have spent the budget) throw errors about the document;
 * - a reply given as one tool call when text was asked: its arguments are the text, when they are
 *   a JSON object (core validates them like any reply); otherwise an error naming the tool;
 * - `usage` missing: estimated from the texts, and `usageMissing` says so;
 * - reasoning tokens counted, and added to the completion tokens where an endpoint reports them
 *   apart (`total_tokens` = prompt + completion + reasoning: Gemini through some gateways,
 *   mozilla-ai/any-llm#1290).
 * `messages` are the request's, for estimating prompt tokens (absent for a Batch API line).
 */
export function readChatCompletion(body: ChatCompletionBody, model: string, failures: EndpointFailures, messages?: readonly ChatMessage[]): LanguageModelResponse {
  if (body.error !== undefined && body.error !== null && !body.choices?.length) throw failures.errorInReply(body);
  const choice = body.choices?.[0];
  if (!choice) throw failures.unusableReply('the reply has no choices');
  const message = choice.message ?? {};
  let text = contentText(message.content);
  const read = readUsage(body.usage, messages, text);
  if (typeof message.refusal === 'string' && message.refusal.trim() !== '') throw failures.refusal(message.refusal);
  if (choice.finish_reason === 'content_filter') throw failures.contentFiltered();
  if (choice.finish_reason === 'length') throw failures.cutAtLength({ text, completionTokens: read.usage.completionTokens, reasoningTokens: read.usage.reasoningTokens });
  if (text.trim() === '') {
    const calls = [...(message.tool_calls ?? []).map((call) => call.function), ...(message.function_call ? [message.function_call] : [])].filter((call) => call !== undefined);
    if (calls.length > 0) {
      const argumentsText = calls.length === 1 ? calls[0]!.arguments ?? '' : '';
      if (!isJsonObject(argumentsText)) throw failures.unusableReply(`the model answered with a tool call (${calls.map((call) => call.name ?? 'unnamed').join(', ')}) instead of text`);
      text = argumentsText;
    }
  }
  return { text, model: body.model ?? model, usage: read.usage, ...(read.missing ? { usageMissing: true } : {}) };
}

/** Message content as text: a string, or the text of its text parts in order. */
function contentText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((part) => (part.type === undefined || part.type === 'text' || part.type === 'output_text') && typeof part.text === 'string').map((part) => part.text as string).join('');
}

function readUsage(usage: ChatCompletionBody['usage'], messages: readonly ChatMessage[] | undefined, text: string): { usage: TokenUsage; missing: boolean } {
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
  const prompt = count(usage?.prompt_tokens);
  const completion = count(usage?.completion_tokens);
  if (prompt === undefined || completion === undefined) {
    const promptText = (messages ?? []).map((message) => message.content).join('\n');
    return { usage: { promptTokens: promptText ? approximateTokenCount(promptText) : 0, completionTokens: approximateTokenCount(text) }, missing: true };
  }
  const read: TokenUsage = { promptTokens: prompt, completionTokens: completion };
  const cached = count(usage?.prompt_tokens_details?.cached_tokens);
  if (cached !== undefined) read.cachedPromptTokens = cached;
  const reasoning = count(usage?.completion_tokens_details?.reasoning_tokens);
  if (reasoning !== undefined) {
    read.reasoningTokens = reasoning;
    if (reasoning > 0 && count(usage?.total_tokens) === prompt + completion + reasoning) read.completionTokens = completion + reasoning;
  }
  return { usage: read, missing: false };
}

function isJsonObject(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
