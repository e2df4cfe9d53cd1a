import type { RecordSchema } from './attribute-definition.ts';
import { checkChildEntities } from './check-child-entities.ts';
import type { CheckPropertyOptions } from './check-property-definition.ts';
import { checkProperties } from './check-properties.ts';
import type { SchemaProblem } from './schema-problem.ts';
import { unknownKeys } from './unknown-keys.ts';

/** The keys a schema document may have: srag's own and the JSON-Schema annotations it tolerates. */
const documentKeys = ['title', 'description', 'type', 'properties', 'entities', 'required', 'additionalProperties', '$schema', '$id', '$comment'];

/**
 * Every problem of a JSON-Schema document as a record schema, and the schema when there is none.
 * The document is a `title` and flat `properties`, each with a primitive `type` and a
 * `description` (see `checkPropertyDefinition`), and optionally `entities`, the lists each
 * document holds (see `checkChildEntities`).
 */
export function checkRecordSchema(input: unknown, options: CheckPropertyOptions = {}): { schema?: RecordSchema; problems: SchemaProblem[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { problems: [{ code: 'not_an_object', problem: 'is not a JSON object', fix: 'write {"title": "…", "properties": {…}}' }] };
  }
  const document = input as Record<string, unknown>;
  const problems: SchemaProblem[] = [];
  const { unknown, meant } = unknownKeys(options.unknownKeys === 'ignore' ? {} : document, documentKeys);
  for (const { key, suggestion } of unknown) {
    problems.push({ code: 'unknown_key', key, problem: 'is not a key of a schema', fix: suggestion ? `did you mean "${suggestion}"? rename it` : 'remove it; a schema has "title" and "properties"' });
  }
  const title = typeof document.title === 'string' ? document.title.trim() : '';
  if (document.title === undefined) {
    if (!meant.has('title')) problems.push({ code: 'missing_key', key: 'title', problem: 'is missing', fix: 'add a "title": it names the table unless --table is given' });
  } else if (!title) {
    problems.push({ code: 'invalid_value', key: 'title', problem: `is ${JSON.stringify(document.title)}, not a name`, fix: 'write the kind of entity the documents describe, e.g. "Hotels"' });
  }
  if (document.type !== undefined && document.type !== 'object') {
    problems.push({ code: 'invalid_value', key: 'type', problem: `is ${JSON.stringify(document.type)}, not "object"`, fix: 'write "type": "object", or leave it out' });
  }
  const properties = document.properties;
  if (properties === undefined) {
    if (!meant.has('properties')) problems.push({ code: 'missing_key', key: 'properties', problem: 'is missing', fix: 'add "properties", an object with one entry per attribute' });
    return { problems };
  }
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    problems.push({ code: 'invalid_value', key: 'properties', problem: 'is not an object', fix: 'write "properties": {"name": {"type": "string", "description": "…"}, …}' });
    return { problems };
  }
  const attributes = checkProperties(properties as Record<string, unknown>, options, problems);
  const entities = document.entities === undefined ? undefined : checkChildEntities(document.entities, attributes.map((attribute) => attribute.name), options, problems);
  if (problems.length > 0) return { problems };
  return { schema: { title, attributes, ...(entities?.length ? { entities } : {}) }, problems };
}
