import { OpenAiChatModel } from '../../openai-wire/index.ts';
import { createOpenAiWire, type OpenAiWireSettings } from './create-openai-wire.ts';

export interface OpenAiLanguageModelSettings extends OpenAiWireSettings {
  model: string;
}

/**
 * The language-model port under Node: the OpenAI-compatible wire over node:http. OpenAI, Azure
 * OpenAI, Ollama, vLLM, llama.cpp server, LM Studio, Gemini's and Anthropic's OpenAI-compatible
 * endpoints and OpenRouter all speak it.
 */
export class OpenAiLanguageModel extends OpenAiChatModel {
  constructor(settings: OpenAiLanguageModelSettings) {
    super(createOpenAiWire(settings), settings.model);
  }
}
