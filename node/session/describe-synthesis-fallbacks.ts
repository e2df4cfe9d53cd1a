import type { SynthesisFallback } from './ingest-outcome.ts';

/**
 * The lines that name the documents where an accepted synthesized extractor failed and the model
 * read the value instead: the first few by name, then how many more. The CLI prints them as
 * warnings, a serve job keeps them in its warnings.
 */
export function describeSynthesisFallbacks({ named, count }: { named: SynthesisFallback[]; count: number }): string[] {
  const lines = named.map(({ document, attribute, reason }) => `${document}: the extractor of ${attribute} failed (${reason}); the model read it`);
  if (count > named.length) lines.push(`… and ${count - named.length} more documents where an extractor failed and the model read the value`);
  return lines;
}
