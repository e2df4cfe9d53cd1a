import path from 'node:path';
import type { GoldCorpus, GoldRecord } from './load-gold-corpus.ts';
import { invalidRequestReply, type Reply } from './reply.ts';
import { repositoryRoot } from './repository-root.ts';
import { containsQuote } from './text-matching.ts';

/** How many of the record's non-null quotes occur in the (whitespace-normalized) text. */
export function countQuotesFound(record: GoldRecord, normalizedText: string): number {
  let found = 0;
  for (const goldValue of Object.values(record.values)) {
    if (containsQuote(normalizedText, goldValue?.quote)) found += 1;
  }
  return found;
}

/** The gold record whose quotes occur most often in the text (ties: the first), or undefined when none occurs. */
export function findBestRecord(corpora: GoldCorpus[], normalizedText: string): GoldRecord | undefined {
  let best: GoldRecord | undefined;
  let bestCount = 0;
  for (const corpus of corpora) {
    for (const record of corpus.records) {
      const count = countQuotesFound(record, normalizedText);
      if (count > bestCount) {
        best = record;
        bestCount = count;
      }
    }
  }
  return best;
}

/** The corpus whose records' quotes occur most often in the text (ties: the first), or undefined when none occurs. */
export function findBestCorpus(corpora: GoldCorpus[], normalizedText: string): GoldCorpus | undefined {
  let best: GoldCorpus | undefined;
  let bestCount = 0;
  for (const corpus of corpora) {
    const count = corpus.records.reduce((sum, record) => sum + countQuotesFound(record, normalizedText), 0);
    if (count > bestCount) {
      best = corpus;
      bestCount = count;
    }
  }
  return best;
}

/** The corpora a stand-in answers from, as a reader would name them: "examples/hotels, examples/worldcup". */
export function describeCorpora(corpora: GoldCorpus[]): string {
  return corpora.map((corpus) => path.relative(repositoryRoot, corpus.directory) || '.').join(', ');
}

/**
 * The refusal for a request the gold data cannot answer: an error reply, so that a demo or a test
 * never passes on an answer the stand-in made up. A real model would answer; this is no model.
 */
export function noGoldReply(what: string, corpora: GoldCorpus[]): Reply {
  return invalidRequestReply(`the LLM stand-in has no gold ${what}; it answers only from the gold data of ${describeCorpora(corpora)} (a real model answers anything)`, 'messages');
}
