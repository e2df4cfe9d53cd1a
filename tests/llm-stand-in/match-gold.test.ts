import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateHotelCorpus } from '../../bench/generate-hotel-corpus.ts';
import { loadGoldCorpus, type GoldCorpus, type GoldRecord } from '../helpers/llm-stand-in/load-gold-corpus.ts';
import { countQuotesFound, findBestRecord } from '../helpers/llm-stand-in/match-gold.ts';
import { normalizeWhitespace } from '../helpers/llm-stand-in/text-matching.ts';

const directory = mkdtempSync(join(tmpdir(), 'srag-match-gold-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The definition: the record with the most quotes in the text, the first of a tie, none when none occurs. */
function bruteForce(corpora: GoldCorpus[], text: string): GoldRecord | undefined {
  let best: GoldRecord | undefined;
  let bestCount = 0;
  for (const corpus of corpora) {
    for (const record of corpus.records) {
      const count = countQuotesFound(record, text);
      if (count > bestCount) {
        bestCount = count;
        best = record;
      }
    }
  }
  return best;
}

describe('findBestRecord', () => {
  it('finds the record the definition finds, for whole pages, pages mixed together, and texts of common quotes only', () => {
    const documents = generateHotelCorpus(directory, 600);
    const corpus = loadGoldCorpus(directory);
    const pages = documents.map((document) => readFileSync(document.path, 'utf8'));
    const texts = [
      ...pages.slice(0, 40),
      // Two pages in one text: the one with more of its quotes present wins, the first on a tie.
      ...pages.slice(40, 60).map((page, index) => `${page}\n${pages[100 + index]!.split('\n').slice(0, 4 + (index % 5)).join('\n')}`),
      // One page's name and address beside another's common facts, which many records share: the best is met only past the rarest quotes.
      ...pages.slice(200, 220).map((page, index) => [
        ...page.split('\n').slice(0, 3),
        ...pages[300 + index]!.split('\n').filter((line) => /^- (Star rating|Swimming pool|Airport shuttle|Pets allowed|Distance to center):/.test(line)),
      ].join('\n')),
      // Only quotes that hundreds of records share.
      'Star rating: 3\nSwimming pool: Yes\nBarcelona, Spain', 'Swimming pool: No', 'no quote at all',
    ].map(normalizeWhitespace);
    for (const text of texts) expect(findBestRecord([corpus], text)?.document, text.slice(0, 80)).toBe(bruteForce([corpus], text)?.document);
    expect(findBestRecord([corpus], normalizeWhitespace(pages[7]!))?.document).toBe(documents[7]!.record.document);
    expect(findBestRecord([corpus], 'no quote at all')).toBeUndefined();
  });
});
