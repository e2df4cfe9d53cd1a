import { describe, expect, it } from 'vitest';
import { extractRecord, ModelClient, parseRecordSchema } from '../../core/index.ts';
import { evidenceRule } from '../../core/extraction/evidence-rule.ts';
import { longestQuote } from '../../core/extraction/longest-quote.ts';
import { readRecordReply } from '../../core/extraction/read-record-reply.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';

/**
 * The prompt asks for quotes of at most 200 characters; a reply quoting 25 million was stored
 * whole (issue 42). A longer quote is asked again once, then refused: the value is dropped with the
 * reason, and the evidence keeps only the quote's beginning and its length.
 */

const schema = parseRecordSchema({
  title: 'Hotel',
  properties: {
    hotel_name: { type: 'string', description: 'Name of the hotel as written on the page.' },
    price_per_night: { type: 'number', unit: 'USD', description: 'Cheapest nightly room rate in US dollars.' },
  },
});
const longSentence = `Rooms at the Grand Budapest Hotel, which overlooks the old town and the river from its hill and has been run by the same family since it opened in 1911, with a garden, a library and a rooftop terrace open all year, start at $1,234 per night.`;
const document = `Welcome to the Grand Budapest Hotel.\n${longSentence}`;
const prompts = loadPromptLibrary();
const reply = (priceQuote: string) => JSON.stringify({
  hotel_name: { value: 'Grand Budapest Hotel', quote: 'Welcome to the Grand Budapest Hotel.' },
  price_per_night: { value: '$1,234', quote: priceQuote },
});

describe('quotes longer than the prompt allows', () => {
  it('is the length the extraction prompt states', () => {
    expect(evidenceRule).toContain(`at most ${longestQuote} characters`);
    expect(longSentence.length).toBeGreaterThan(longestQuote);
  });

  it('asks again for a shorter quote, and keeps the value the shorter one states', async () => {
    const { languageModel, requests } = createRecordingLanguageModel([reply(longSentence), reply('start at $1,234 per night')]);
    const record = await extractRecord({ client: new ModelClient({ languageModel, sleep: async () => {} }), prompts, schema, text: document });
    expect(record.values).toEqual({ hotel_name: 'Grand Budapest Hotel', price_per_night: 1234 });
    expect(requests[1]!.messages.at(-1)!.content).toContain(`price_per_night: the quote is ${longSentence.length} characters long; quote at most ${longestQuote} characters, the shortest passage that states the value`);
  });

  it('refuses the value when the re-ask quotes as long, and keeps the quote cut to its first 200 characters with its length', async () => {
    const { languageModel } = createRecordingLanguageModel(reply(longSentence));
    const record = await extractRecord({ client: new ModelClient({ languageModel, sleep: async () => {} }), prompts, schema, text: document });
    expect(record.values).toEqual({ hotel_name: 'Grand Budapest Hotel', price_per_night: null });
    const evidence = record.evidence.find((entry) => entry.attribute === 'price_per_night')!;
    expect(evidence).toMatchObject({
      status: 'unsupported',
      quote: `${longSentence.slice(0, longestQuote)}… (cut: the model quoted ${longSentence.length} characters)`,
      reason: `the quote is ${longSentence.length} characters long, more than the ${longestQuote} the prompt allows: it does not show where the value is stated`,
    });
    expect(record.issues.map((issue) => [issue.attribute, issue.code])).toEqual([['price_per_night', 'quote_too_long']]);
  });

  it('keeps at most 200 characters of a quote of 25 million, for a value the document does not state too', () => {
    const huge = 'x'.repeat(25_000_000);
    const read = readRecordReply({ hotel_name: { value: null, quote: huge }, price_per_night: { value: 1234, quote: huge } }, { schema, documentText: document, withEvidence: true, strict: false });
    if (!('value' in read)) throw new Error(read.problems.join('; '));
    const cut = `${'x'.repeat(longestQuote)}… (cut: the model quoted 25,000,000 characters)`;
    expect(read.value.evidence.map((entry) => [entry.status, entry.quote])).toEqual([['missing', cut], ['unsupported', cut]]);
    expect(JSON.stringify(read.value).length).toBeLessThan(2_000);
  });
});
