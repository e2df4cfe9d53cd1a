import { describe, expect, it } from 'vitest';
import { ModelClient, predictSchema } from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';

/** These tests retry nothing that needs a real wait. */
const noWait = async () => {};

const prompts = loadPromptLibrary();
const documents = [{ name: 'a.html', text: 'Hotel Lux, Paris. 4 stars. $120 a night.' }, { name: 'b.html', text: 'Hotel Ritz, Rome. 5 stars. $300 a night.' }];
const questions = ['How many 5-star hotels are in Rome?', 'What is the average price?'];
const schemaReply = (properties: Record<string, unknown>) => `Here is the schema:\n\`\`\`json\n${JSON.stringify({ title: 'Hotel', type: 'object', properties })}\n\`\`\``;
const name = { type: 'string', description: 'The hotel name as written.', examples: ['Hotel Lux'] };
const price = { type: 'number', unit: 'USD', description: 'Price of one night, in US dollars.', examples: [120] };

describe('predictSchema (S-RAG paper §3.2.1)', () => {
  it('runs round 1 on documents only and later rounds on the previous schema, the questions and the documents', async () => {
    const { languageModel, requests } = createRecordingLanguageModel([
      schemaReply({ hotel_name: name }),
      schemaReply({ hotel_name: name, price_per_night: price }),
      schemaReply({ hotel_name: name, price_per_night: price, star_rating: { type: 'integer', description: 'Stars, 1 to 5.', examples: [4] } }),
    ]);
    const result = await predictSchema({ client: new ModelClient({ languageModel, sleep: noWait }), prompts, documents, questions, iterations: 3 });
    expect(requests).toHaveLength(3);
    expect(requests[0]!.messages[0]!.content).toBe(prompts['predict-schema-first']);
    expect(requests[0]!.messages[1]!.content).not.toContain(questions[0]);
    expect(requests[0]!.messages[1]!.content).toContain('Hotel Lux, Paris');
    for (const request of requests.slice(1)) {
      expect(request.messages[0]!.content).toBe(prompts['refine-schema']);
      expect(request.messages[1]!.content).toContain(questions[0]);
      expect(request.messages[1]!.content).toContain('Existing schema:');
      expect(request.messages[1]!.content).toContain('Hotel Ritz, Rome');
    }
    expect(requests[2]!.messages[1]!.content).toContain('"price_per_night"');
    expect(result.rounds.map((round) => round.attributes.length)).toEqual([1, 2, 3]);
    expect(result.schema.attributes.map((attribute) => attribute.name)).toEqual(['hotel_name', 'price_per_night', 'star_rating']);
  });

  it('re-asks once when a round returns a nested object, a list or a number without a unit, naming the problem', async () => {
    const { languageModel, requests } = createRecordingLanguageModel([
      schemaReply({ hotel_name: name, price: { type: 'number', description: 'The price.', examples: [1] } }),
      schemaReply({ hotel_name: name, price_per_night: price }),
    ]);
    const result = await predictSchema({ client: new ModelClient({ languageModel, sleep: noWait }), prompts, documents, questions, iterations: 1 });
    expect(requests).toHaveLength(2);
    const reAsk = requests[1]!.messages.at(-1)!.content;
    expect(reAsk).toContain('number property "price" needs a "unit"');
    expect(result.schema.attributes.map((attribute) => attribute.name)).toEqual(['hotel_name', 'price_per_night']);
  });

  it('renames properties to snake_case columns', async () => {
    const { languageModel } = createRecordingLanguageModel(schemaReply({ 'Hotel Name': name, pricePerNight: price }));
    const result = await predictSchema({ client: new ModelClient({ languageModel, sleep: noWait }), prompts, documents, questions, iterations: 1 });
    expect(result.schema.attributes.map((attribute) => attribute.name)).toEqual(['hotel_name', 'price_per_night']);
  });

  it('fails with the raw model text as evidence when the re-asked schema is still invalid', async () => {
    const nested = schemaReply({ address: { type: 'object', properties: { city: name }, description: 'Address.' } });
    const { languageModel } = createRecordingLanguageModel(nested);
    const error = await predictSchema({ client: new ModelClient({ languageModel, sleep: noWait }), prompts, documents, questions, iterations: 1 }).catch((caught) => caught);
    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(error.text).toBe(nested);
    expect(error.problems[0]).toContain('property "address" is a nested object');
  });
});
