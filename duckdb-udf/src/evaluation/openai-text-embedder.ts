import OpenAI from 'openai';
import { firstLine, LanguageModelError, redactSecrets, type TextEmbedder } from '../../../core/index.ts';

export interface OpenAiTextEmbedderSettings {
  /** Read late; never logged, stored or put in an error message. */
  apiKey?: string;
  baseURL?: string;
  model: string;
  timeoutMilliseconds: number;
}

/** The embedding port over the `openai` SDK's `/embeddings` (OpenAI, Ollama, vLLM, LM Studio). */
export class OpenAiTextEmbedder implements TextEmbedder {
  readonly modelId: string;
  private readonly client: OpenAI;
  private readonly redact: (text: string) => string;

  constructor(settings: OpenAiTextEmbedderSettings) {
    this.modelId = settings.model;
    this.redact = (text) => redactSecrets(text, [settings.apiKey]);
    this.client = new OpenAI({ apiKey: settings.apiKey ?? 'not-needed-for-local-servers', baseURL: settings.baseURL, maxRetries: 2, timeout: settings.timeoutMilliseconds });
  }

  async embed(texts: string[], abortSignal?: AbortSignal): Promise<number[][]> {
    try {
      const response = await this.client.embeddings.create({ model: this.modelId, input: texts }, { signal: abortSignal });
      const vectors = [...response.data].sort((left, right) => left.index - right.index).map((entry) => entry.embedding);
      if (vectors.length !== texts.length) throw new Error(`asked for ${texts.length} embeddings, got ${vectors.length}`);
      return vectors;
    } catch (error) {
      const status = error instanceof OpenAI.APIError ? error.status : undefined;
      throw new LanguageModelError({
        message: `the embeddings request failed${status ? ` (${status})` : ''}: ${this.redact(firstLine(error instanceof Error ? error.message : String(error), 200))}`,
        status,
        retryable: false,
        cause: error,
      });
    }
  }
}

/**
 * Whether the endpoint serves `/embeddings` for `model`: one short text is embedded. Returns the
 * embedder when it works, else the reason (a 404 from a chat-only server, an unknown model), so the
 * caller can fall back to keyword retrieval and say why.
 */
export async function detectTextEmbedder(settings: OpenAiTextEmbedderSettings): Promise<{ embedder: TextEmbedder } | { reason: string }> {
  const embedder = new OpenAiTextEmbedder({ ...settings, timeoutMilliseconds: Math.min(settings.timeoutMilliseconds, 15_000) });
  try {
    await embedder.embed(['probe']);
    return { embedder: new OpenAiTextEmbedder(settings) };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}
