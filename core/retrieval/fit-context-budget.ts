import type { Chunk } from './chunk-documents.ts';

/**
 * The chunks at `ranked` positions, in rank order, while they fit in `contextTokens` (no cap when
 * undefined); the first that does not fit ends the context, so what the model sees is the best
 * part of the ranking. Returns the chunks and the tokens they use.
 */
export function fitContextBudget(chunks: readonly Chunk[], ranked: readonly number[], contextTokens: number | undefined): { chunks: Chunk[]; tokens: number } {
  const chosen: Chunk[] = [];
  let tokens = 0;
  for (const index of ranked) {
    const chunk = chunks[index]!;
    if (contextTokens !== undefined && tokens + chunk.tokens > contextTokens) break;
    chosen.push(chunk);
    tokens += chunk.tokens;
  }
  return { chunks: chosen, tokens };
}
