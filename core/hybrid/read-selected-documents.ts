import { documentText } from '../documents/document-text.ts';
import { firstLine } from '../errors/first-line.ts';
import type { ContextDocument } from '../evaluation/answering-system.ts';
import { contentHash } from '../hashing/content-hash.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { DocumentReader } from '../ports/document-reader.ts';
import type { DocumentProblem } from './document-problem.ts';

/** Files read at once: enough to hide disk latency, few enough not to exhaust file handles. */
const readConcurrency = 8;

/**
 * Reads the selected documents again from their sources and keeps only those whose content is
 * still what their row was extracted from; every other one is a `DocumentProblem`, never used
 * silently (a changed page would answer with text the table does not describe). Documents keep
 * the order of `sources`; `source` stays the store's identity, `label` is what the prompt shows.
 */
export async function readSelectedDocuments({ reader, sources, hashText = contentHash, abortSignal }: {
  reader: DocumentReader;
  sources: readonly string[];
  hashText?: (text: string) => string;
  abortSignal?: CancellationSignal;
}): Promise<{ documents: Array<ContextDocument & { label: string }>; problems: DocumentProblem[] }> {
  const recorded = await reader.recordedHashes(sources);
  const outcomes: Array<{ document: ContextDocument & { label: string } } | { problem: DocumentProblem }> = new Array(sources.length);
  let next = 0;
  const work = async () => {
    while (next < sources.length) {
      const index = next++;
      const source = sources[index]!;
      const label = reader.label?.(source) ?? source;
      const hash = recorded.get(source);
      if (hash === undefined) {
        outcomes[index] = { problem: { source, problem: 'unrecorded', message: `${label}: not in the ingestion log, so whether it changed cannot be checked; run srag ingest on it` } };
        continue;
      }
      let content: string;
      try {
        content = await reader.read(source, abortSignal);
      } catch (error) {
        if (abortSignal?.aborted) throw error;
        const reason = error instanceof Error ? firstLine(error.message) : String(error);
        outcomes[index] = { problem: { source, problem: 'missing', message: `${label}: cannot be read (${reason}); restore it, or run srag ingest again to drop it` } };
        continue;
      }
      outcomes[index] = hashText(content) === hash
        ? { document: { source, label, text: documentText(source, content) } }
        : { problem: { source, problem: 'changed', message: `${label}: changed since it was ingested; run srag ingest again so its row matches its text` } };
    }
  };
  await Promise.all(Array.from({ length: Math.min(readConcurrency, sources.length) }, work));
  return {
    documents: outcomes.flatMap((outcome) => ('document' in outcome ? [outcome.document] : [])),
    problems: outcomes.flatMap((outcome) => ('problem' in outcome ? [outcome.problem] : [])),
  };
}
