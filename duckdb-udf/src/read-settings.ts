import { SragError } from '../../core/index.ts';
import { defaultMaxReplyBytes } from '../../openai-wire/index.ts';
import { readDocumentReadingLimits, type DocumentReadingLimits } from './documents/document-reading-limits.ts';
import { positiveIntegerSetting } from './positive-integer-setting.ts';

export interface SragSettings {
  apiKey: string | undefined;
  baseURL: string | undefined;
  model: string;
  extractModel: string;
  concurrency: number;
  maxInputTokens: number;
  requestTimeoutMilliseconds: number;
  maxRetries: number;
  /** Warn before a document that needs more model calls than this. */
  callWarningThreshold: number;
  /** Ask before a back-fill of `srag ask --extend-schema` over more documents than this (SRAG_CONFIRM_DOCUMENTS). */
  confirmDocuments: number;
  /** The most bytes read of one reply of the endpoint (SRAG_MAX_REPLY_BYTES, default 8 MiB); a longer one fails its call. */
  maxReplyBytes: number;
  /** Pages and time one document may take to read (SRAG_MAX_PAGES, SRAG_READ_TIMEOUT_MS). */
  documentReading: DocumentReadingLimits;
}

export const defaultModel = 'gpt-4o-mini';

/**
 * Settings from the environment, read when a command needs the model (never at import time).
 * OPENAI_API_KEY and OPENAI_BASE_URL mean what they mean to the openai SDK (see create-openai-wire.ts).
 */
export function readSettings(environment: Record<string, string | undefined> = process.env): SragSettings {
  return {
    apiKey: environment.OPENAI_API_KEY || undefined,
    baseURL: environment.OPENAI_BASE_URL || undefined,
    model: environment.SRAG_MODEL || defaultModel,
    extractModel: environment.SRAG_EXTRACT_MODEL || environment.SRAG_MODEL || defaultModel,
    concurrency: positiveIntegerSetting(environment, 'SRAG_CONCURRENCY', 8),
    maxInputTokens: positiveIntegerSetting(environment, 'SRAG_MAX_INPUT_TOKENS', 24_000),
    requestTimeoutMilliseconds: positiveIntegerSetting(environment, 'SRAG_REQUEST_TIMEOUT_MS', 120_000),
    maxRetries: positiveIntegerSetting(environment, 'SRAG_MAX_RETRIES', 6, true),
    callWarningThreshold: positiveIntegerSetting(environment, 'SRAG_WARN_CALLS_PER_DOCUMENT', 20),
    confirmDocuments: positiveIntegerSetting(environment, 'SRAG_CONFIRM_DOCUMENTS', 200, true),
    maxReplyBytes: positiveIntegerSetting(environment, 'SRAG_MAX_REPLY_BYTES', defaultMaxReplyBytes),
    documentReading: readDocumentReadingLimits(environment),
  };
}

/**
 * What must never be shown of the settings: the key, and whatever the base URL carries
 * (credentials, query values; `redactSecrets` keeps its address).
 */
export function secretSettings(environment: Record<string, string | undefined> = process.env): Array<string | undefined> {
  return [environment.OPENAI_API_KEY, environment.OPENAI_BASE_URL];
}

/** Throws the one-line "no LLM configured" error naming every way to configure one; called when a model call is due. */
export function requireModelConfigured(settings: SragSettings): void {
  if (settings.apiKey || settings.baseURL) return;
  throw new SragError({
    code: 'LLM_NOT_CONFIGURED',
    message: 'no LLM endpoint is configured',
    hint: 'set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for a local server (Ollama: http://localhost:11434/v1, vLLM: http://localhost:8000/v1, LM Studio: http://localhost:1234/v1), and SRAG_MODEL for the model name; only replies already in the response cache need none',
  });
}
