import type { Dialect } from '../types.ts';
import { anthropicOpenAiDialect } from './anthropic-openai-dialect.ts';
import { azureDialect } from './azure-dialect.ts';
import type { DialectRules } from './dialect-rules.ts';
import { geminiOpenAiDialect } from './gemini-openai-dialect.ts';
import { llamaCppDialect } from './llama-cpp-dialect.ts';
import { lmStudioDialect } from './lm-studio-dialect.ts';
import { ollamaDialect } from './ollama-dialect.ts';
import { openAiChatDialect } from './openai-chat-dialect.ts';
import { openAiReasoningDialect } from './openai-reasoning-dialect.ts';
import { openRouterDialect } from './openrouter-dialect.ts';
import { vllmDialect } from './vllm-dialect.ts';

/** The rules of `dialect`, with state of their own (one stand-in's). */
export function createDialect(dialect: Dialect): DialectRules {
  switch (dialect) {
    case 'openai':
      return openAiChatDialect();
    case 'openai-reasoning':
      return openAiReasoningDialect();
    case 'azure':
      return azureDialect();
    case 'ollama':
      return ollamaDialect();
    case 'vllm':
      return vllmDialect();
    case 'llama-cpp':
      return llamaCppDialect();
    case 'lm-studio':
      return lmStudioDialect();
    case 'gemini-openai':
      return geminiOpenAiDialect();
    case 'anthropic-openai':
      return anthropicOpenAiDialect();
    case 'openrouter':
      return openRouterDialect();
  }
}
