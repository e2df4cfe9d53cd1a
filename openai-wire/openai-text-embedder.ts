import type { CancellationSignal, TextEmbedder } from '../core/index.ts';
import type { OpenAiWire } from './openai-wire.ts';

/** Only the fields read from an embeddings reply. */
interface EmbeddingsBody {
  data?: Array<{ index?: number; embedding?: number[] }>;
}

/** Core's embedding port over `embeddings` (OpenAI, Ollama, vLLM, LM Studio). */
export class OpenAiTextEmbedder implements TextEmbedder {
  constructor(private readonly wire: OpenAiWire, readonly modelId: string) {}

  async embed(texts: string[], abortSignal?: CancellationSignal): Promise<number[][]> {
    const body = await this.wire.postJson('embeddings', { model: this.modelId, input: texts }, { model: this.modelId, signal: abortSignal }) as EmbeddingsBody;
    const vectors = [...(body.data ?? [])].sort((left, right) => (left.index ?? 0) - (right.index ?? 0)).map((entry) => entry.embedding);
    if (vectors.length !== texts.length || vectors.some((vector) => !Array.isArray(vector))) {
      throw this.wire.failures.unusableReply(`asked for ${texts.length} embeddings, got ${vectors.filter(Array.isArray).length}`);
    }
    return vectors as number[][];
  }
}
