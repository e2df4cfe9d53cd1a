import { contentHash } from '../hashing/content-hash.ts';

/** One document of a batch as the model is shown it. */
export interface BatchEntry {
  id: string;
  text: string;
}

/**
 * The boundary that delimits the documents of one batch prompt: a hash of the documents
 * themselves, so that no document can contain it (it would have to contain a hash of itself) and
 * so that the same batch gives the same prompt, which keeps the response cache working. A random
 * boundary would be as safe but would miss the cache on every rerun. Should a text contain the
 * candidate anyway, the next candidate is taken.
 */
function batchBoundary(texts: readonly string[], hashText: (text: string) => string): string {
  const seed = hashText(texts.join('\u0000'));
  for (let attempt = 0; ; attempt += 1) {
    const candidate = `srag-${(attempt === 0 ? seed : hashText(`${seed}:${attempt}`)).slice(0, 16)}`;
    if (!texts.some((text) => text.includes(candidate))) return candidate;
  }
}

/**
 * The user message of a batch: each document between `<document id="N" boundary="B">` and
 * `</document boundary="B">` lines. Text inside a document that looks like a tag (a forged
 * `</document>` followed by `<document id="2">`) lacks the boundary, so it neither closes nor
 * opens a document; the prompt tells the model so. `hashText` is SHA-256 as hex: core's portable
 * one by default, a runtime's native one where there is one (the portable one hashing every batch's
 * documents was a tenth of `srag ingest`'s own CPU).
 */
export function renderBatchDocuments(entries: readonly BatchEntry[], hashText: (text: string) => string = contentHash): string {
  const boundary = batchBoundary(entries.map((entry) => entry.text), hashText);
  return entries.map((entry) => `<document id="${entry.id}" boundary="${boundary}">\n${entry.text}\n</document boundary="${boundary}">`).join('\n\n');
}
