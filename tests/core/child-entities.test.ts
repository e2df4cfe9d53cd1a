import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { automaticBatchSize, chooseTables, parseRecordSchemaText, recordOutputSchema, recordSchemaToJsonSchema, renderExtractionInstructions, type CatalogTable, type RecordSchema, type TableCatalog } from '../../core/index.ts';
import { parseRecordSchema } from '../../core/schema/parse-record-schema.ts';
import { readRecordReply } from '../../core/extraction/read-record-reply.ts';
import { renderBatchExtractionInstructions } from '../../core/extraction/render-batch-extraction-instructions.ts';
import { relateChildTables } from '../../core/table-choice/relate-child-tables.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

const schemaText = readFileSync(join(repositoryRoot, 'examples/guesthouses/schema.json'), 'utf8');
const schema = parseRecordSchemaText(schemaText, 'schema.json');
const documentText = 'Casa Azul Guesthouse\nRua das Flores 12, Porto, Portugal\n- Single Room: USD 60 per night, sleeps 1\n- Double Room: USD 95 per night, sleeps 2';

/** The one-line error a schema document gets (with its hint after a dash, as the CLI prints it), or undefined when it parses. */
function schemaError(document: unknown): string | undefined {
  try {
    parseRecordSchema(document, 'schema.json');
    return undefined;
  } catch (error) {
    const { message, hint } = error as { message: string; hint?: string };
    return hint ? `${message} — ${hint}` : message;
  }
}

const room = (fields: Record<string, unknown>) => ({ room_type: { value: null, quote: null }, price_per_night: { value: null, quote: null }, sleeps: { value: null, quote: null }, ...fields });
const base = { name: { value: 'Casa Azul Guesthouse', quote: 'Casa Azul Guesthouse' }, city: { value: 'Porto', quote: 'Rua das Flores 12, Porto, Portugal' }, star_rating: { value: null, quote: null } };

describe('the "entities" section of a schema', () => {
  it('reads an entity as flat attributes of its own, and writes it back unchanged', () => {
    expect(schema.entities?.map((entity) => [entity.name, entity.attributes.map((attribute) => `${attribute.name}:${attribute.kind}`)]))
      .toEqual([['rooms', ['room_type:string', 'price_per_night:number', 'sleeps:integer']]]);
    expect(parseRecordSchema(recordSchemaToJsonSchema(schema))).toEqual(schema);
    // A schema without entities is saved exactly as before.
    const flat: RecordSchema = { title: schema.title, attributes: schema.attributes };
    expect(Object.keys(recordSchemaToJsonSchema(flat))).toEqual(['title', 'type', 'properties', 'required']);
  });

  it('names the entity, the property and the fix in one line for each mistake', () => {
    const document = JSON.parse(schemaText) as { entities: { rooms: Record<string, any> } };
    const withRooms = (rooms: unknown) => ({ ...document, entities: { rooms } });
    expect(schemaError(withRooms({ ...document.entities.rooms, description: undefined })))
      .toBe('schema.json: entity "rooms", key "description" is missing — add a "description" that says what one item is and which items the list holds, e.g. "every room type the hotel lists, with its own price"');
    expect(schemaError(withRooms({ ...document.entities.rooms, properties: { ...document.entities.rooms.properties, price_per_night: { type: 'number', description: 'Price', unit: 'furlongs' } } })))
      .toMatch(/^schema\.json: entity "rooms", property "price_per_night", key "unit" is "furlongs"/);
    expect(schemaError(withRooms({ ...document.entities.rooms, properties: { _position: { type: 'integer', description: 'x' } } })))
      .toBe('schema.json: entity "rooms", property "_position" is a name srag reserves for its own columns — rename it');
    expect(schemaError(withRooms({ description: 'Rooms', propertes: document.entities.rooms.properties }))).toContain('entity "rooms", key "propertes" is not a key of an entity — did you mean "properties"? rename it');
    expect(schemaError({ ...document, entities: { city: document.entities.rooms } })).toBe('schema.json: entity "city" has the name of the property "city"; the reply holds both under one key — rename one of them');
    expect(schemaError({ ...document, entities: [] })).toMatch(/^schema\.json: key "entities" is not an object — write "entities": \{"rooms": /);
    // A list of objects among the properties points to "entities".
    const listed = { ...document, properties: { ...(document as any).properties, rooms: { type: 'array', items: { type: 'object', properties: {} } } } };
    expect(schemaError(listed)).toBe('schema.json: property "rooms" is a list of objects; a property holds one value — declare it under "entities": {"rooms": {"description": "…", "properties": {…}}} (one row per item in its own table)');
  });

  it('asks for the lists in the extraction prompt and output schema only when the schema declares them', () => {
    const prompts = loadPromptLibrary();
    const rule = '- A list ("rooms") holds one object per item the document lists, in its order, with the item\'s properties; [] when it lists none.';
    // One line per property, as for any schema; the list's items' properties indented under it.
    const listed = [
      '- "star_rating" (integer): The official star rating, 1 to 5. Examples: 3',
      '- "rooms" (list): Every room type the guesthouse lists, each with its own price; one item per room type. Each item:',
      '  - "room_type" (string): The room type\'s name as the list gives it (Double Room, Family Suite). Examples: "Double Room"',
      '  - "price_per_night" (number in USD): The price of one night in the room, in US dollars. Examples: 95',
      '  - "sleeps" (integer): How many guests the room sleeps. Examples: 2',
    ].join('\n');
    const withEntities = renderExtractionInstructions(prompts, schema, true);
    expect(withEntities).toContain(`not paraphrased; null when the value is null.\n${rule}\n`);
    expect(withEntities).toContain(listed);
    expect(withEntities).toContain('"city":{"value":"Porto","quote":"…"}, …, "rooms": [{"room_type":{"value":"Double Room","quote":"…"},"price_per_night":{"value":95,"quote":"…"}, …}, …]}');
    // Several documents per call: the same lines, and each record of the reply carries its own list.
    const batch = renderBatchExtractionInstructions(prompts, schema, false);
    expect(batch).toContain(`dates YYYY-MM-DD.\n${rule}\n`);
    expect(batch).toContain(listed);
    expect(batch).toContain('{"records": [{"id":"1","name":"Casa Azul Guesthouse","city":"Porto", …, "rooms": [{"room_type":"Double Room","price_per_night":95, …}, …]}, …]}');
    const flat = { title: schema.title, attributes: schema.attributes };
    // Fewer documents share a call when each record's reply carries a list of items.
    expect(automaticBatchSize(schema, true)).toBe(4);
    expect(automaticBatchSize(flat, true)).toBe(16);
    for (const text of [renderExtractionInstructions(prompts, flat, true), renderBatchExtractionInstructions(prompts, flat, false)]) {
      expect(text).not.toContain('list');
      expect(text).not.toContain('rooms');
    }
    const output = recordOutputSchema(schema, true).schema as { required: string[]; properties: Record<string, any> };
    expect(output.required).toEqual(['name', 'city', 'star_rating', 'rooms']);
    expect(output.properties.rooms.type).toBe('array');
    expect(output.properties.rooms.items.required).toEqual(['room_type', 'price_per_night', 'sleeps']);
  });
});

describe('reading the items of a reply', () => {
  const read = (reply: unknown, strict = false) => readRecordReply(reply, { schema, documentText, withEvidence: true, strict });

  it('keeps each item whose values its quotes state, in order, and refuses a misread value under a true quote', () => {
    const result = read({
      ...base,
      rooms: [
        room({ room_type: { value: 'Single Room', quote: 'Single Room: USD 60 per night, sleeps 1' }, price_per_night: { value: 'USD 60', quote: 'Single Room: USD 60 per night, sleeps 1' } }),
        room({ room_type: { value: 'Double Room', quote: 'Double Room: USD 95 per night, sleeps 2' }, price_per_night: { value: 'USD 950', quote: 'Double Room: USD 95 per night, sleeps 2' } }),
      ],
    });
    if (!('value' in result)) throw new Error(result.problems.join('; '));
    expect(result.value.children!.rooms!.map((item) => item.values)).toEqual([
      { room_type: 'Single Room', price_per_night: 60, sleeps: null },
      { room_type: 'Double Room', price_per_night: null, sleeps: null },
    ]);
    expect(result.value.issues.map((issue) => [issue.attribute, issue.code])).toEqual([['rooms[2].price_per_night', 'value_not_in_quote']]);
  });

  it('leaves out an item nothing in the document supports: a room with a made-up quote adds no row', () => {
    const result = read({ ...base, rooms: [room({ room_type: { value: 'Penthouse', quote: 'Penthouse: USD 900 per night' }, price_per_night: { value: 900, quote: 'Penthouse: USD 900 per night' } })] });
    if (!('value' in result)) throw new Error(result.problems.join('; '));
    expect(result.value.children!.rooms).toEqual([]);
    expect(result.value.issues.map((issue) => issue.code)).toEqual(['unsupported_quote', 'unsupported_quote']);
  });

  it('re-asks when the list is not a list, and after the re-ask keeps the record without items; a list left out is refused after the re-ask too', () => {
    expect(read({ ...base }, true)).toEqual({ problems: ['rooms: expected a list of items (an empty list when the document lists none), got nothing'] });
    expect(read({ ...base })).toEqual({ problems: ['rooms: expected a list of items (an empty list when the document lists none), got nothing'] });
    expect(read({ ...base, rooms: 'two rooms' }, true)).toEqual({ problems: ['rooms: expected a list of items (an empty list when the document lists none), got a string'] });
    const relaxed = read({ ...base, rooms: 'two rooms' });
    if (!('value' in relaxed)) throw new Error('expected a record');
    expect(relaxed.value.values.city).toBe('Porto');
    expect(relaxed.value.children!.rooms).toEqual([]);
    expect(relaxed.value.issues.map((issue) => issue.code)).toEqual(['not_a_list']);
    const none = read({ ...base, rooms: null });
    expect('value' in none && none.value.children!.rooms).toEqual([]);
  });
});

describe('table choice over a parent and its child table', () => {
  const table = (name: string, tableSchema: RecordSchema): CatalogTable => ({ name, schema: tableSchema, statistics: [], origin: 'extracted' });
  const tables = relateChildTables([
    table('guesthouses', schema),
    table('guesthouses__rooms', { title: 'rooms', attributes: schema.entities![0]!.attributes }),
    table('museums', { title: 'Museums', attributes: [{ name: 'museum_name', kind: 'string', description: 'The museum', examples: [] }] }),
  ]);
  const catalog: TableCatalog = {
    tables: async () => tables,
    links: async () => [
      { table: 'guesthouses__rooms', column: '_source', otherTable: 'guesthouses', otherColumn: '_source', containment: 1, otherUniqueness: 1, sharedValues: 8 },
      { table: 'guesthouses', column: '_source', otherTable: 'guesthouses__rooms', otherColumn: '_source', containment: 1, otherUniqueness: 0.4, sharedValues: 8 },
    ],
    findValues: async (phrases) => (phrases.includes('porto') ? [{ table: 'guesthouses', column: 'city', phrase: 'porto' }] : []),
  };

  it('marks the child table with its parent from the parent\'s schema', () => {
    expect(tables.map((candidate) => candidate.parent?.table)).toEqual([undefined, 'guesthouses', undefined]);
  });

  it('joins the parent when the question names a fact of the documents, and not otherwise', async () => {
    const names = async (question: string) => (await chooseTables({ question, catalog })).tables.map((chosen) => chosen.name).sort();
    expect(await names('What is the cheapest room type in Porto?')).toEqual(['guesthouses', 'guesthouses__rooms']);
    expect(await names('What is the name of the guesthouse with the most expensive room?')).toEqual(['guesthouses', 'guesthouses__rooms']);
    expect(await names('What is the average price per night of a room that sleeps 2?')).toEqual(['guesthouses__rooms']);
    expect(await names('How many guesthouses are in Porto?')).toEqual(['guesthouses']);
  });
});
