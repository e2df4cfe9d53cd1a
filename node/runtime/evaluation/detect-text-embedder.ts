import { OpenAiTextEmbedder } from '../../../openai-wire/index.ts';
import type { TextEmbedder } from '../../../core/index.ts';
import { createOpenAiWire, type OpenAiWireSettings } from '../create-openai-wire.ts';

/** How long the probe may take: a server that does not answer a one-word embedding quickly will not serve a corpus. */
const probeTimeoutMilliseconds = 15_000;

/**
 * Whether the endpoint serves `/embeddings` for `model`: one short text is embedded. Returns the
 * embedder when it works, else the reason (a 404 from a chat-only server, an unknown model), so the
 * caller can fall back to keyword retrieval and say why.
 */
export async function detectTextEmbedder(settings: OpenAiWireSettings & { model: string }): Promise<{ embedder: TextEmbedder } | { reason: string }> {
  const probe = new OpenAiTextEmbedder(createOpenAiWire({ ...settings, timeoutMilliseconds: Math.min(settings.timeoutMilliseconds, probeTimeoutMilliseconds) }), settings.model);
  try {
    await probe.embed(['probe']);
    return { embedder: new OpenAiTextEmbedder(createOpenAiWire(settings), settings.model) };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}
