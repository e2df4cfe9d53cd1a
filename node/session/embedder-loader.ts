import type { TextEmbedder } from '../../core/index.ts';
import { detectTextEmbedder } from '../runtime/evaluation/detect-text-embedder.ts';
import type { Session } from './open-session.ts';

/** The embedder, probed once per session user (a command, a server) and only when a question takes the hybrid path. */
export function embedderLoader(session: Session): () => Promise<TextEmbedder | undefined> {
  let embedder: Promise<TextEmbedder | undefined> | undefined;
  // No endpoint configured (answers from the cache only): nothing to probe, BM25 ranks.
  return () => (embedder ??= !session.settings.apiKey && !session.settings.baseURL ? Promise.resolve(undefined) : detectTextEmbedder({
    apiKey: session.settings.apiKey,
    baseURL: session.settings.baseURL,
    model: process.env.SRAG_EMBEDDING_MODEL || 'text-embedding-3-small',
    timeoutMilliseconds: session.settings.requestTimeoutMilliseconds,
    maxReplyBytes: session.settings.maxReplyBytes,
  }).then((detected) => ('embedder' in detected ? detected.embedder : undefined)));
}
