import { describe, expect, it } from 'vitest';
import { parseRecordSchema, parseRecordSchemaText, recordSchemaToJsonSchema, renderSchemaProblem, SchemaInvalidError, tableNameForSchema } from '../../core/index.ts';
import { checkRecordSchema } from '../../core/schema/check-record-schema.ts';
import { singularNoun } from '../../core/schema/singular-noun.ts';

const property = (overrides: Record<string, unknown> = {}) => ({ type: 'string', description: 'The hotel name, as written.', examples: ['Hotel Lux'], ...overrides });
const schemaWith = (properties: Record<string, unknown>, title = 'Hotels') => ({ title, type: 'object', properties });

function rejectionOf(run: () => unknown): SchemaInvalidError {
  try {
    run();
  } catch (error) {
    expect(SchemaInvalidError.isInstance(error)).toBe(true);
    return error as SchemaInvalidError;
  }
  throw new Error('expected the schema to be rejected');
}
const problemOf = (input: unknown) => rejectionOf(() => parseRecordSchema(input, 'schema.json'));
const problemsOfText = (text: string) => rejectionOf(() => parseRecordSchemaText(text, 'schema.json')).problems;

describe('record schema', () => {
  it('reads every supported kind, including dates, units and scales', () => {
    const schema = parseRecordSchema(schemaWith({
      hotel_name: property(),
      star_rating: property({ type: 'integer', examples: [4] }),
      price_per_night: property({ type: 'number', unit: 'USD', examples: [120] }),
      revenue: property({ type: 'number', unit: 'USD', scale: 'millions', examples: [1.2] }),
      has_pool: property({ type: 'boolean', examples: [true] }),
      opened_date: property({ type: 'string', format: 'date', examples: ['2011-03-05'] }),
      rating: property({ type: ['number', 'null'], unit: 'points out of 10', examples: [8.7] }),
    }));
    expect(schema.attributes.map((attribute) => [attribute.name, attribute.kind])).toEqual([
      ['hotel_name', 'string'], ['star_rating', 'integer'], ['price_per_night', 'number'], ['revenue', 'number'],
      ['has_pool', 'boolean'], ['opened_date', 'date'], ['rating', 'number'],
    ]);
    expect(schema.attributes.find((attribute) => attribute.name === 'revenue')).toMatchObject({ unit: 'USD', scale: 1e6 });
  });

  it('round-trips through its JSON-Schema form unchanged', () => {
    const schema = parseRecordSchema(schemaWith({ revenue: property({ type: 'number', unit: 'USD', scale: 'millions', examples: [1.2] }), opened: property({ type: 'string', format: 'date' }) }));
    expect(parseRecordSchema(recordSchemaToJsonSchema(schema))).toEqual(schema);
  });

  it('rejects a nested object, naming the property and suggesting flat properties', () => {
    const error = problemOf(schemaWith({ address: { type: 'object', properties: { city: property() }, description: 'x' } }));
    expect(error.property).toBe('address');
    expect(error.message).toBe('schema.json: property "address" is a nested object; only flat attributes are supported');
    expect(error.hint).toContain('address_city');
  });

  it('rejects a list, suggesting one boolean per option with the option names the schema lists, in the singular', () => {
    const listed = problemOf(schemaWith({ facilities: { type: 'array', items: { type: 'string', enum: ['pool', 'spa'] }, description: 'Facilities.' } }));
    expect(listed.message).toContain('property "facilities" is a list');
    expect(listed.hint).toBe('use one boolean property per possible value, e.g. "facility_pool", "facility_spa"');
    const unlisted = problemOf(schemaWith({ languages: { type: 'array', items: { type: 'string' }, description: 'Languages.' } }));
    expect(unlisted.hint).toContain('"language_<option>"');
  });

  it('singularizes the last word of a name as English does', () => {
    expect(['facilities', 'languages', 'boxes', 'addresses', 'room_types', 'categories', 'status', 'series', 'people', 'amenities', 'beaches', 'days', 'price'].map(singularNoun))
      .toEqual(['facility', 'language', 'box', 'address', 'room_type', 'category', 'status', 'series', 'person', 'amenity', 'beach', 'day', 'price']);
  });

  it('rejects a property without a description, naming the key and the fix', () => {
    const error = problemOf(schemaWith({ city: { type: 'string' } }));
    expect(error.problems).toEqual([expect.objectContaining({ code: 'missing_key', property: 'city', key: 'description' })]);
    expect(error.message).toBe('schema.json: property "city", key "description" is missing');
    expect(error.hint).toMatch(/add a "description"/);
  });

  it('names a misspelt key and the key it stands for, instead of reporting that key missing', () => {
    const error = problemOf(schemaWith({ city: { type: 'string', descripton: 'The city.' } }));
    expect(error.problems).toHaveLength(1);
    expect(renderSchemaProblem(error.problems[0]!, 'schema.json')).toBe('property "city", key "descripton" is not a key srag reads — did you mean "description"? rename it');
    const unrelated = problemOf(schemaWith({ city: property({ enum: ['Paris', 'Rome'] }) }));
    expect(unrelated.hint).toBe('remove it; a property has only "type", "format", "description", "examples", "unit", "scale"');
  });

  it('ignores keys it does not read in a model\'s output, which is saved without them', () => {
    expect(checkRecordSchema(schemaWith({ city: property({ title: 'City', enum: ['Paris'] }) }), { unknownKeys: 'ignore' }).problems).toEqual([]);
  });

  it('rejects an unsupported type, listing the supported ones', () => {
    const error = problemOf(schemaWith({ city: property({ type: 'geo' }) }));
    expect(error.property).toBe('city');
    expect(error.message).toBe('schema.json: property "city", key "type" is "geo", not a type srag supports');
    expect(error.hint).toContain('"string", "number", "integer" or "boolean"');
  });

  it('rejects an invalid scale with the valid values and the likely one', () => {
    const error = problemOf(schemaWith({ revenue: property({ type: 'number', unit: 'USD', scale: 'milions' }) }));
    expect(error.message).toBe('schema.json: property "revenue", key "scale" is "milions", not a scale');
    expect(error.hint).toBe('did you mean "millions"? use "thousands", "millions", "billions" or "trillions", or a positive number such as 1000000');
    expect(problemOf(schemaWith({ revenue: property({ type: 'number', scale: -3 }) })).hint).toContain('"thousands", "millions", "billions" or "trillions"');
  });

  it('rejects a unit of a convertible dimension that srag cannot convert into, listing those it can; keeps labels of counts', () => {
    const error = problemOf(schemaWith({ distance: property({ type: 'number', unit: 'furlongs' }) }));
    expect(error.problems).toEqual([expect.objectContaining({ code: 'unit_not_converted', property: 'distance', key: 'unit' })]);
    expect(error.message).toContain('is "furlongs", a length unit srag cannot convert values into');
    expect(error.hint).toBe('use one of mm, cm, m, km, mi, yd, ft, in');
    expect(problemOf(schemaWith({ weight: property({ type: 'number', unit: 'stone' }) })).hint).toContain('kg');
    for (const unit of ['stars', 'points out of 10', 'guests', 'years', 'USD per night', 'metres']) {
      expect(parseRecordSchema(schemaWith({ value: property({ type: 'number', unit }) })).attributes[0]!.unit).toBe(unit);
    }
  });

  it('rejects names that are not usable columns, reserved, or equal but for case', () => {
    expect(problemOf(schemaWith({ 'Hotel Name': property() })).hint).toContain('"hotel_name"');
    expect(problemOf(schemaWith({ _source: property() })).message).toContain('reserves');
    expect(problemOf(schemaWith({ city: property(), City: property() })).message).toContain('only in case');
  });

  it('rejects a unit on a non-number, a missing title and empty properties', () => {
    expect(problemOf(schemaWith({ city: property({ unit: 'km' }) })).message).toContain('key "unit" is set but the property is a string');
    expect(problemOf({ properties: { city: property() } }).message).toBe('schema.json: key "title" is missing');
    expect(problemOf(schemaWith({})).message).toContain('key "properties" is empty');
  });

  it('reports every problem of a schema at once, each naming its property, key and fix', () => {
    const error = problemOf({
      titel: 'Hotels',
      properties: {
        price: property({ type: 'number', unit: 'furlongs', scale: 'lots' }),
        city: { type: 'string', descripton: 'x' },
        tags: { type: 'array', items: { type: 'string' }, description: 'Tags.' },
      },
    });
    expect(error.problems.map((problem) => [problem.property, problem.key, problem.code])).toEqual([
      [undefined, 'titel', 'unknown_key'],
      ['price', 'unit', 'unit_not_converted'],
      ['price', 'scale', 'invalid_value'],
      ['city', 'descripton', 'unknown_key'],
      ['tags', undefined, 'list'],
    ]);
    expect(error.problems.every((problem) => problem.fix.length > 0)).toBe(true);
    expect(error.message).toMatch(/^schema\.json has 5 problems: key "titel" is not a key of a schema — did you mean "title"\? rename it; property "price", key "unit"/);
  });

  it('names keys a schema file writes twice, which JSON parsing would drop silently', () => {
    const problems = problemsOfText(`{
      "title": "Hotels", "title": "Hotel pages",
      "properties": {
        "price": { "type": "number", "unit": "USD", "unit": "EUR", "description": "Price." },
        "city": { "type": "string", "description": "City." },
        "city": { "type": "string", "description": "The city." }
      }
    }`);
    expect(problems.map((problem) => [problem.code, problem.property, problem.key])).toEqual([
      ['duplicate_key', undefined, 'title'], ['duplicate_key', 'price', 'unit'], ['duplicate_key', 'city', undefined],
    ]);
    expect(renderSchemaProblem(problems[1]!, 'schema.json')).toBe('property "price", key "unit" is written twice — keep one of them: JSON keeps only the last, silently');
  });

  it('says where the JSON syntax breaks, by line and column', () => {
    const [problem] = problemsOfText('{\n  "title": "Hotels",\n  "properties": { "city": { "type": "string", } }\n}');
    expect(problem).toMatchObject({ code: 'invalid_json' });
    expect(renderSchemaProblem(problem!, 'schema.json')).toMatch(/^schema\.json is not valid JSON: .* \(line 3, column \d+\) — fix the JSON syntax$/);
  });

  it('reads a valid schema file text as parseRecordSchema reads its JSON', () => {
    const text = JSON.stringify(schemaWith({ city: property(), price: property({ type: 'number', unit: 'USD' }) }));
    expect(parseRecordSchemaText(text, 'schema.json')).toEqual(parseRecordSchema(JSON.parse(text)));
  });

  it('names the table from --table, else from the title in snake_case', () => {
    const schema = parseRecordSchema(schemaWith({ city: property() }, 'Hotel Page'));
    expect(tableNameForSchema(schema)).toBe('hotel_page');
    expect(tableNameForSchema(parseRecordSchema(schemaWith({ city: property() }, 'WorldCupTournament')))).toBe('world_cup_tournament');
    expect(tableNameForSchema(schema, 'my_hotels')).toBe('my_hotels');
  });
});
