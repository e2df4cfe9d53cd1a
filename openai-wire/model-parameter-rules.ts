/** How a model takes srag's request parameters, as far as its name tells. */
export interface ModelParameterRules {
  /** Whether `temperature: 0` is sent: reasoning models take only the default and refuse any other. */
  temperature: boolean;
  /** The output limit's name: reasoning models refuse `max_tokens` and take `max_completion_tokens`. */
  maxTokensName: 'max_tokens' | 'max_completion_tokens';
  /** Whether `reasoning_effort` is sent when set: OpenAI's chat models without reasoning refuse it. */
  reasoningEffort: boolean;
}

/**
 * OpenAI's reasoning models: the o-series (`o1`, `o3-mini`, `o4-mini`, …) and the gpt-5 family
 * except its chat snapshot (`gpt-5-chat-latest`), and codex models. Each refuses `temperature: 0`
 * ("Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value
 * is supported.", gpt-5-mini in QwenLM/qwen-code#921; o3-mini says "Unsupported parameter:
 * 'temperature' is not supported with this model.", chatboxai/chatbox#1830) and `max_tokens`
 * (griptape-ai/ComfyUI-Griptape#312).
 */
const reasoningModel = /^(?:o\d+(?:-|$)|gpt-5(?!-chat)(?:[.-]|$)|codex-)/;
/** OpenAI's chat models without reasoning, which refuse `reasoning_effort` ("Unrecognized request argument supplied: reasoning_effort", davidmigloz/langchain_dart#712). */
const chatModel = /^(?:gpt-(?:3\.5|4)|gpt-5-chat|chatgpt-)/;

/**
 * The rules a model's name implies; any other model (a local server's, an Azure deployment's name)
 * gets the ordinary ones, and the wire learns from the endpoint's refusals what it does not take.
 * A router's vendor prefix (`openai/gpt-5-mini` on OpenRouter) is looked through.
 */
export function modelParameterRules(model: string): ModelParameterRules {
  const name = model.toLowerCase().replace(/^[\w.-]+\//, '');
  if (reasoningModel.test(name)) return { temperature: false, maxTokensName: 'max_completion_tokens', reasoningEffort: true };
  return { temperature: true, maxTokensName: 'max_tokens', reasoningEffort: !chatModel.test(name) };
}
