import { describe, expect, it } from 'vitest';
import {
  approximateTokenCount,
  DeferringLanguageModel,
  extractRecord,
  ModelClient,
  parseRecordSchema,
  renderExtractionInstructions,
  renderSchemaForPrompt,
  type CachedResponse,
  type LanguageModelRequest,
  type ResponseCache,
  type SragError,
} from '../../core/index.ts';
import { caught } from '../helpers/caught.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { createRecordingLanguageModel, type ScriptedReply } from '../helpers/recording-language-model.ts';

class MemoryCache implements ResponseCache {
  readonly entries = new Map<string, CachedResponse>();
  async get(key: string) {
    return this.entries.get(key);
  }
  async set(key: string, response: CachedResponse) {
    this.entries.set(key, response);
  }
}

const schema = parseRecordSchema({
  title: 'Hotel',
  properties: {
    hotel_name: { type: 'string', description: 'Name of the hotel as written on the page.' },
    price_per_night: { type: 'number', unit: 'USD', description: 'Cheapest nightly room rate in US dollars.' },
    has_pool: { type: 'boolean', description: 'Whether the hotel has a swimming pool.' },
    opened_on: { type: 'string', format: 'date', description: 'Date the hotel opened.' },
  },
});

const prompts = loadPromptLibrary();

const document = [
  'Welcome to the Grand Budapest Hotel.',
  'Rooms start at $1,234 per night.',
  'Swimming pool: Yes',
  'The hotel opened on 5 March 2011.',
].join('\n');

type Entry = { value: unknown; quote?: string | null } | string | number | boolean | null;

/** A record reply: `{ attribute: { value, quote } }`; attributes not given are null. */
function reply(entries: Record<string, Entry>): string {
  const record: Record<string, unknown> = {};
  for (const attribute of schema.attributes) record[attribute.name] = entries[attribute.name] ?? { value: null, quote: null };
  return JSON.stringify(record);
}

const fullReply = reply({
  hotel_name: { value: 'Grand Budapest Hotel', quote: 'Welcome to the Grand Budapest Hotel.' },
  price_per_night: { value: '$1,234', quote: 'Rooms start at $1,234 per night.' },
  has_pool: { value: 'Yes', quote: 'Swimming pool: Yes' },
  opened_on: { value: '5 March 2011', quote: 'opened on 5 March 2011' },
});

function setUp(replies: ScriptedReply | ScriptedReply[], cache?: ResponseCache) {
  const model = createRecordingLanguageModel(replies);
  const client = new ModelClient({ languageModel: model.languageModel, cache, sleep: async () => {} });
  return { ...model, client };
}

const evidenceFor = (result: Awaited<ReturnType<typeof extractRecord>>, attribute: string) =>
  result.evidence.find((entry) => entry.attribute === attribute)!;

describe('extractRecord prompt', () => {
  it('sends exactly a system message with instructions and schema, then a user message with the document last', async () => {
    const { client, requests } = setUp(fullReply);
    await extractRecord({ client, prompts, schema, text: document });
    expect(requests).toHaveLength(1);
    const [system, user] = requests[0]!.messages;
    expect(requests[0]!.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(system!.content).toContain('Extract one record from the document');
    expect(system!.content).toContain('"price_per_night"');
    expect(system!.content).toContain('Cheapest nightly room rate in US dollars.');
    expect(system!.content).not.toContain('Grand Budapest');
    expect(user!.content).toBe(`<document>\n${document}\n</document>`);
  });

  it('asks for a strict output schema: every property required, no additional properties, nullable types', async () => {
    const { client, requests } = setUp(fullReply);
    await extractRecord({ client, prompts, schema, text: document });
    expect(requests[0]!.outputSchema).toMatchInlineSnapshot(`
      {
        "name": "record",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "has_pool": {
              "additionalProperties": false,
              "properties": {
                "quote": {
                  "type": [
                    "string",
                    "null",
                  ],
                },
                "value": {
                  "type": [
                    "boolean",
                    "null",
                  ],
                },
              },
              "required": [
                "value",
                "quote",
              ],
              "type": "object",
            },
            "hotel_name": {
              "additionalProperties": false,
              "properties": {
                "quote": {
                  "type": [
                    "string",
                    "null",
                  ],
                },
                "value": {
                  "type": [
                    "string",
                    "null",
                  ],
                },
              },
              "required": [
                "value",
                "quote",
              ],
              "type": "object",
            },
            "opened_on": {
              "additionalProperties": false,
              "properties": {
                "quote": {
                  "type": [
                    "string",
                    "null",
                  ],
                },
                "value": {
                  "type": [
                    "string",
                    "null",
                  ],
                },
              },
              "required": [
                "value",
                "quote",
              ],
              "type": "object",
            },
            "price_per_night": {
              "additionalProperties": false,
              "properties": {
                "quote": {
                  "type": [
                    "string",
                    "null",
                  ],
                },
                "value": {
                  "type": [
                    "number",
                    "string",
                    "null",
                  ],
                },
              },
              "required": [
                "value",
                "quote",
              ],
              "type": "object",
            },
          },
          "required": [
            "hotel_name",
            "price_per_night",
            "has_pool",
            "opened_on",
          ],
          "type": "object",
        },
      }
    `);
  });

  it('sends byte-identical system messages for two different documents', async () => {
    const { client, requests } = setUp(reply({}));
    await extractRecord({ client, prompts, schema, text: document });
    await extractRecord({ client, prompts, schema, text: 'The Overlook Hotel, Colorado.' });
    expect(requests).toHaveLength(2);
    expect(requests[0]!.messages[0]!.content).toBe(requests[1]!.messages[0]!.content);
    expect(requests[0]!.messages[1]!.content).not.toBe(requests[1]!.messages[1]!.content);
  });

  it('passes the model option through to the request', async () => {
    const { client, requests } = setUp(fullReply);
    await extractRecord({ client, prompts, schema, text: document, model: 'cheap-extractor' });
    expect(requests[0]!.model).toBe('cheap-extractor');
  });
});

describe('extractRecord values and evidence', () => {
  it('normalizes values in code: "$1,234" to 1234, "Yes" to true, "5 March 2011" to 2011-03-05', async () => {
    const { client } = setUp(fullReply);
    const result = await extractRecord({ client, prompts, schema, text: document });
    expect(result.values).toEqual({ hotel_name: 'Grand Budapest Hotel', price_per_night: 1234, has_pool: true, opened_on: '2011-03-05' });
    expect(result.issues).toEqual([]);
    expect(result.evidence.map((entry) => entry.status)).toEqual(['supported', 'supported', 'supported', 'supported']);
    expect(evidenceFor(result, 'price_per_night')).toMatchObject({ raw: '$1,234', quote: 'Rooms start at $1,234 per night.', value: 1234 });
    expect(result.parts).toBe(1);
  });

  it('drops a value whose quote does not occur in the document, with an unsupported_quote issue', async () => {
    const { client } = setUp(reply({
      hotel_name: { value: 'Grand Budapest Hotel', quote: 'Welcome to the Grand Budapest Hotel.' },
      price_per_night: { value: 99, quote: 'Rooms from $99 a night' },
    }));
    const result = await extractRecord({ client, prompts, schema, text: document });
    expect(result.values.price_per_night).toBeNull();
    expect(result.values.hotel_name).toBe('Grand Budapest Hotel');
    expect(result.issues).toEqual([expect.objectContaining({ attribute: 'price_per_night', code: 'unsupported_quote', received: 99 })]);
    expect(evidenceFor(result, 'price_per_night')).toMatchObject({ status: 'unsupported', value: null, quote: 'Rooms from $99 a night' });
  });

  it('drops a value its true quote does not state, with a value_not_in_quote issue and the reason', async () => {
    const { client } = setUp(reply({
      hotel_name: { value: 'Totally Different Corp', quote: 'Welcome to the Grand Budapest Hotel.' },
      price_per_night: { value: 999999, quote: 'Rooms start at $1,234 per night.' },
      has_pool: { value: false, quote: 'Swimming pool: Yes' },
      opened_on: { value: '2011-03-05', quote: 'The hotel opened on 5 March 2011.' },
    }));
    const result = await extractRecord({ client, prompts, schema, text: document });
    expect(result.values).toEqual({ hotel_name: null, price_per_night: null, has_pool: null, opened_on: '2011-03-05' });
    expect(result.issues.map((issue) => [issue.attribute, issue.code])).toEqual([
      ['hotel_name', 'value_not_in_quote'], ['price_per_night', 'value_not_in_quote'], ['has_pool', 'value_not_in_quote'],
    ]);
    expect(evidenceFor(result, 'price_per_night')).toMatchObject({
      status: 'unsupported', value: null, raw: 999999, reason: 'the quote states 1234 ("$1,234 per night"), not 999999',
    });
    expect(evidenceFor(result, 'hotel_name').reason).toBe('the quote does not contain "totally", "different", "corp"');
    expect(result.issues[0]!.message).toBe('hotel_name: the quote does not contain "totally", "different", "corp"; value "Totally Different Corp" dropped');
  });

  it('drops a value given without a quote, with a missing_quote issue', async () => {
    const { client } = setUp(reply({ has_pool: { value: true, quote: null }, opened_on: '2011-03-05' }));
    const result = await extractRecord({ client, prompts, schema, text: document });
    expect(result.values.has_pool).toBeNull();
    expect(result.values.opened_on).toBeNull();
    expect(result.issues.map((issue) => [issue.attribute, issue.code])).toEqual([['has_pool', 'missing_quote'], ['opened_on', 'missing_quote']]);
    expect(evidenceFor(result, 'has_pool').status).toBe('unsupported');
  });

  it('matches quotes across whitespace differences and typographic quotes', async () => {
    const text = 'The hotel\'s   outdoor\n  pool is open all year.\nIt is called "The   Lido".';
    const { client } = setUp(reply({
      has_pool: { value: true, quote: 'The hotel’s outdoor pool is open all year.' },
      hotel_name: { value: 'The Lido', quote: 'called “The Lido”' },
    }));
    const result = await extractRecord({ client, prompts, schema, text });
    expect(result.values).toMatchObject({ has_pool: true, hotel_name: 'The Lido' });
    expect(result.issues).toEqual([]);
    expect(evidenceFor(result, 'hotel_name').status).toBe('supported');
  });

  it('asks for no quotes and keeps values unchecked when withEvidence is false', async () => {
    const { client, requests } = setUp(JSON.stringify({ hotel_name: 'Invented Name', price_per_night: '$1,234', has_pool: 'Yes', opened_on: null }));
    const result = await extractRecord({ client, prompts, schema, text: document, withEvidence: false });
    expect(requests[0]!.messages[0]!.content.toLowerCase()).not.toContain('quote');
    expect(JSON.stringify(requests[0]!.outputSchema)).not.toContain('quote');
    expect((requests[0]!.outputSchema!.schema.properties as Record<string, unknown>).price_per_night).toEqual({
      type: ['number', 'string', 'null'],
    });
    expect(result.values).toEqual({ hotel_name: 'Invented Name', price_per_night: 1234, has_pool: true, opened_on: null });
    expect(result.issues).toEqual([]);
    expect(evidenceFor(result, 'hotel_name')).toMatchObject({ status: 'unchecked', quote: null });
  });

  it('re-asks once on wrong types and turns a value still unreadable after the re-ask into NULL with an issue', async () => {
    const { client, requests } = setUp([
      reply({
        price_per_night: { value: { amount: 1234, currency: 'USD' }, quote: 'Rooms start at $1,234 per night.' },
        has_pool: { value: 'maybe', quote: 'Swimming pool: Yes' },
      }),
      reply({
        price_per_night: { value: 1234, quote: 'Rooms start at $1,234 per night.' },
        has_pool: { value: 'maybe', quote: 'Swimming pool: Yes' },
      }),
    ]);
    const result = await extractRecord({ client, prompts, schema, text: document });
    expect(requests).toHaveLength(2);
    const reAsk = requests[1]!.messages;
    expect(reAsk).toHaveLength(4);
    expect(reAsk[3]!.content).toMatch(/^Your previous answer had validation errors:/);
    expect(reAsk[3]!.content).toContain('price_per_night');
    expect(reAsk[3]!.content).toContain('has_pool');
    expect(result.values.price_per_night).toBe(1234);
    expect(result.values.has_pool).toBeNull();
    expect(result.issues).toEqual([expect.objectContaining({ attribute: 'has_pool', code: 'not_a_boolean', received: 'maybe' })]);
    expect(evidenceFor(result, 'has_pool').status).toBe('invalid');
  });

  it('reports true for cached only when the reply came from the cache', async () => {
    const cache = new MemoryCache();
    const { client, requests } = setUp(fullReply, cache);
    const first = await extractRecord({ client, prompts, schema, text: document });
    const second = await extractRecord({ client, prompts, schema, text: document });
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(second.usage).toEqual({ promptTokens: 0, completionTokens: 0 });
    expect(second.values).toEqual(first.values);
    expect(requests).toHaveLength(1);
  });
});

describe('extractRecord long documents', () => {
  const filler = (topic: string) => Array.from({ length: 40 }, (_, index) => `${topic} note ${index + 1}: guests describe the ${topic} as calm and well kept.`).join(' ');
  const longDocument = [
    '# Grand Budapest Hotel',
    '',
    'Rooms start at $120 per night.',
    '',
    filler('lobby'),
    '',
    '## Facilities',
    '',
    'The roof terrace has an outdoor swimming pool.',
    '',
    filler('garden'),
    '',
    '## History',
    '',
    'The hotel opened on 5 March 2011. Since the renovation rooms start at $150 per night.',
    '',
    filler('library'),
  ].join('\n');

  /** Answers from the part it is shown: only values whose phrases are in that part. */
  const replyFromPart = (request: LanguageModelRequest): string => {
    const part = request.messages[1]!.content;
    const price = /rooms start at (\$\d+) per night/i.exec(part);
    return reply({
      hotel_name: part.includes('# Grand Budapest Hotel') && !part.includes('Hotel (continued)')
        ? { value: 'Grand Budapest Hotel', quote: '# Grand Budapest Hotel' }
        : { value: null, quote: null },
      price_per_night: price ? { value: price[1]!, quote: price[0] } : { value: null, quote: null },
      has_pool: part.includes('outdoor swimming pool') ? { value: 'yes', quote: 'outdoor swimming pool' } : { value: null, quote: null },
      opened_on: part.includes('opened on 5 March 2011') ? { value: '5 March 2011', quote: 'opened on 5 March 2011' } : { value: null, quote: null },
    });
  };

  const extractLong = (client: ModelClient) =>
    extractRecord({ client, prompts, schema, text: longDocument, maxInputTokens: 700, countTokens: approximateTokenCount });

  it('counts no tokens of a document whose bytes fit the budget, and counts one whose bytes do not', async () => {
    const counted: string[] = [];
    const countTokens = (text: string) => {
      counted.push(text);
      return approximateTokenCount(text);
    };
    const { client } = setUp(replyFromPart);
    // A budget of 3 tokens per character of the short document and more: it fits whatever the tokenizer.
    await extractRecord({ client, prompts, schema, text: document, maxInputTokens: 10_000, countTokens });
    expect(counted).not.toContain(document);
    // A document whose bytes (the most tokens it can be) pass the budget is counted.
    await extractRecord({ client, prompts, schema, text: longDocument, maxInputTokens: 700, countTokens });
    expect(counted).toContain(longDocument);
  });

  it('splits a long document into parts, one request each, labelled part i of n, with the same system message', async () => {
    const { client, requests } = setUp(replyFromPart);
    const result = await extractLong(client);
    expect(result.parts).toBeGreaterThanOrEqual(3);
    expect(requests).toHaveLength(result.parts);
    requests.forEach((request, index) => {
      expect(request.messages).toHaveLength(2);
      expect(request.messages[1]!.content.startsWith(`<document part="${index + 1}" of="${result.parts}">\n`)).toBe(true);
      expect(request.messages[1]!.content.endsWith('\n</document>')).toBe(true);
      expect(request.messages[0]!.content).toBe(requests[0]!.messages[0]!.content);
    });
    expect(requests[0]!.messages[1]!.content).toContain('$120');
    expect(requests[0]!.messages[1]!.content).not.toContain('$150');
  });

  it('defers every part of a long document to the Batch API in one submission, then reads the replies from the cache', async () => {
    const cache = new MemoryCache();
    const { languageModel, requests } = createRecordingLanguageModel(replyFromPart);
    let client: ModelClient;
    const deferring = new DeferringLanguageModel({ languageModel, keyOf: (request) => client.cacheKey(request) });
    client = new ModelClient({ languageModel: deferring, cache, sleep: async () => {} });
    expect((await caught(extractLong(client)) as SragError).code).toBe('DEFERRED_TO_BATCH');
    const lines = deferring.take();
    // All parts at once, not one part per submission (a day each).
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(requests).toHaveLength(0);
    // The batch's replies, put in the cache under the lines' ids, answer the next run without a call.
    for (const line of lines) await cache.set(line.customId, await languageModel.doGenerate(line.request));
    const result = await extractLong(new ModelClient({ languageModel, cache, sleep: async () => {} }));
    expect(result.parts).toBe(lines.length);
    expect(result.cached).toBe(true);
    expect(requests).toHaveLength(lines.length);
    expect(result.values).toEqual({ hotel_name: 'Grand Budapest Hotel', price_per_night: 120, has_pool: true, opened_on: '2011-03-05' });
  });

  it('merges values per attribute: a value found in one part beats nulls in the others', async () => {
    const { client } = setUp(replyFromPart);
    const result = await extractLong(client);
    expect(result.values).toEqual({ hotel_name: 'Grand Budapest Hotel', price_per_night: 120, has_pool: true, opened_on: '2011-03-05' });
    expect(evidenceFor(result, 'has_pool').status).toBe('supported');
    expect(evidenceFor(result, 'opened_on').status).toBe('supported');
  });

  it('keeps the first value when parts disagree and records a conflicting_values issue', async () => {
    const { client } = setUp(replyFromPart);
    const result = await extractLong(client);
    expect(result.values.price_per_night).toBe(120);
    const conflicts = result.issues.filter((issue) => issue.code === 'conflicting_values');
    expect(conflicts).toEqual([expect.objectContaining({ attribute: 'price_per_night', received: [120, 150] })]);
    expect(evidenceFor(result, 'price_per_night')).toMatchObject({ status: 'conflict', value: 120 });
    expect(result.issues.filter((issue) => issue.attribute !== 'price_per_night')).toEqual([]);
  });

  it('sums usage over the parts', async () => {
    const { client, requests } = setUp(replyFromPart);
    const result = await extractLong(client);
    const promptTokens = requests.reduce((sum, request) => sum + Math.ceil(request.messages.reduce((chars, message) => chars + message.content.length, 0) / 4), 0);
    expect(result.usage.promptTokens).toBe(promptTokens);
    expect(result.usage.completionTokens).toBeGreaterThan(0);
  });

  it('reports cached false when only some parts came from the cache', async () => {
    const full = new MemoryCache();
    await extractLong(setUp(replyFromPart, full).client);
    const [firstKey, firstEntry] = [...full.entries.entries()][0]!;
    const partial = new MemoryCache();
    partial.entries.set(firstKey, firstEntry);

    const { client, requests } = setUp(replyFromPart, partial);
    const result = await extractLong(client);
    expect(result.cached).toBe(false);
    expect(requests).toHaveLength(result.parts - 1);

    const { client: replayClient, requests: replayRequests } = setUp(replyFromPart, full);
    const replay = await extractLong(replayClient);
    expect(replay.cached).toBe(true);
    expect(replayRequests).toHaveLength(0);
  });
});

describe('extractRecord with hostile replies and property names', () => {
  // JSON text: in an object literal, `__proto__:` would set the prototype instead of naming a property.
  const objectKeySchema = parseRecordSchema(JSON.parse(`{"title": "Row", "properties": {
    "__proto__": {"type": "string", "description": "The prototype."},
    "constructor": {"type": "string", "description": "The builder."},
    "toString": {"type": "integer", "description": "The strings."}
  }}`));
  const text = 'Prototype: Alpha\nBuilt by: Ada\nStrings: 12';

  it('keeps properties named __proto__, constructor and toString as ordinary keys, in the prompt and in the record', async () => {
    // constructor is left out of the first reply: it must read as left out (and be asked again), not as Object.prototype.constructor.
    const { client, requests } = setUp([
      '{"__proto__": {"value": "Alpha", "quote": "Prototype: Alpha"}, "toString": {"value": 12, "quote": "Strings: 12"}}',
      '{"__proto__": {"value": "Alpha", "quote": "Prototype: Alpha"}, "constructor": {"value": null, "quote": null}, "toString": {"value": 12, "quote": "Strings: 12"}}',
    ]);
    const result = await extractRecord({ client, prompts, schema: objectKeySchema, text });
    expect(requests[1]!.messages.at(-1)!.content).toContain('the reply leaves out property constructor');
    expect(Object.keys(result.values)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.entries(result.values)).toEqual([['__proto__', 'Alpha'], ['constructor', null], ['toString', 12]]);
    expect(result.issues).toEqual([]);
    expect(JSON.parse(JSON.stringify(result.values))).toEqual(JSON.parse('{"__proto__": "Alpha", "constructor": null, "toString": 12}'));
    const outputSchema = requests[0]!.outputSchema!.schema as { properties: object; required: string[] };
    expect(Object.keys(outputSchema.properties)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(requests[0]!.messages[0]!.content).toContain('- "__proto__" (string): ');
  });

  it('turns an integer beyond 64 bits and a value nested 100,000 levels deep into NULL with an issue, keeping the rest', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const reply = `{"__proto__": {"value": ${deep}, "quote": "Prototype: Alpha"}, "constructor": {"value": "Ada", "quote": "Built by: Ada"}, "toString": {"value": 99999999999999999999, "quote": "Strings: 12"}}`;
    const { client } = setUp([reply, reply]);
    const result = await extractRecord({ client, prompts, schema: objectKeySchema, text });
    expect(Object.entries(result.values)).toEqual([['__proto__', null], ['constructor', 'Ada'], ['toString', null]]);
    expect(result.issues.map((issue) => [issue.attribute, issue.code])).toEqual([['__proto__', 'not_a_string'], ['toString', 'not_a_number']]);
    expect(result.issues[1]!.message).toMatch(/is too large to hold exactly/);
    expect(evidenceFor(result, '__proto__').raw).toBe('[a list nested more than 16 levels deep]');
    // What the store writes must be writable.
    expect(() => JSON.stringify(result)).not.toThrow();
  });
});

describe('the schema as extraction prompts show it', () => {
  it('gives each property one line: name, kind with unit or scale, description and examples, without JSON Schema boilerplate', () => {
    const compact = parseRecordSchema({
      title: 'Companies',
      properties: {
        name: { type: 'string', description: 'Legal name', examples: ['Acme Corp'] },
        revenue: { type: 'number', description: 'Annual revenue.', unit: 'USD', scale: 'millions', examples: [12.5] },
        founded: { type: 'string', format: 'date', description: 'Founding date.' },
        listed: { type: 'boolean', description: 'Whether the shares trade on an exchange.', examples: [true, false] },
      },
    });
    expect(renderSchemaForPrompt(compact)).toMatchInlineSnapshot(`
      "- "name" (string): Legal name. Examples: "Acme Corp"
      - "revenue" (number in millions of USD): Annual revenue. Examples: 12.5
      - "founded" (date, YYYY-MM-DD): Founding date.
      - "listed" (boolean): Whether the shares trade on an exchange. Examples: true, false"
    `);
    expect(renderExtractionInstructions(prompts, compact, true)).toContain('The document describes one company.');
  });
});
