import type { ChildEntity } from './attribute-definition.ts';
import type { CheckPropertyOptions } from './check-property-definition.ts';
import { checkProperties, propertyNamePattern } from './check-properties.ts';
import type { SchemaProblem } from './schema-problem.ts';
import { unknownKeys } from './unknown-keys.ts';

/** The keys an entity may have. */
const entityKeys = ['description', 'properties'];

/**
 * The child entities of a schema's `"entities"` section, every problem pushed onto `problems`:
 * `{"rooms": {"description": "…", "properties": {…}}}`, each name snake_case and distinct from the
 * document's properties (the reply carries both as keys of one object), each entity's properties
 * defined as the top-level ones are. Entities do not nest: an item's own lists would need a
 * grandchild table, which no question here has needed.
 */
export function checkChildEntities(input: unknown, propertyNames: string[], options: CheckPropertyOptions, problems: SchemaProblem[]): ChildEntity[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    problems.push({ code: 'invalid_value', key: 'entities', problem: 'is not an object', fix: 'write "entities": {"rooms": {"description": "…", "properties": {…}}}, one entry per list the documents hold' });
    return [];
  }
  const properties = new Map(propertyNames.map((name) => [name.toLowerCase(), name]));
  const seen = new Map<string, string>();
  const entities: ChildEntity[] = [];
  for (const [name, definition] of Object.entries(input as Record<string, unknown>)) {
    const report = (code: SchemaProblem['code'], key: string | undefined, problem: string, fix: string) => {
      problems.push({ code, entity: name, ...(key === undefined ? {} : { key }), problem, fix });
    };
    const folded = name.toLowerCase();
    if (!propertyNamePattern.test(name) || name.startsWith('_')) {
      report('unusable_name', undefined, 'is not a usable table name', `use snake_case letters, digits and underscores, e.g. "${folded.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'rooms'}"`);
    } else if (properties.has(folded)) {
      report('case_clash', undefined, `has the name of the property "${properties.get(folded)}"; the reply holds both under one key`, 'rename one of them');
    } else if (seen.has(folded)) {
      report('case_clash', undefined, `differs from the entity "${seen.get(folded)}" only in case; their tables would clash`, 'rename one of them');
    }
    seen.set(folded, name);
    if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
      report('not_an_object', undefined, `is ${JSON.stringify(definition)}, not an object`, 'write it as {"description": "…", "properties": {…}}');
      continue;
    }
    const entity = definition as Record<string, unknown>;
    const { unknown, meant } = unknownKeys(options.unknownKeys === 'ignore' ? {} : entity, entityKeys);
    for (const { key, suggestion } of unknown) {
      report('unknown_key', key, 'is not a key of an entity', suggestion
        ? `did you mean "${suggestion}"? rename it`
        : key === 'entities' ? 'entities do not nest: declare the list at the top level, or flatten it into properties of this entity' : 'remove it; an entity has "description" and "properties"');
    }
    const description = typeof entity.description === 'string' ? entity.description.trim() : '';
    if (entity.description === undefined) {
      if (!meant.has('description')) report('missing_key', 'description', 'is missing', `add a "description" that says what one item is and which items the list holds, e.g. "every room type the hotel lists, with its own price"`);
    } else if (!description) {
      report('invalid_value', 'description', 'is empty', 'write what one item is and which items the list holds');
    }
    if (entity.properties === undefined) {
      if (!meant.has('properties')) report('missing_key', 'properties', 'is missing', 'add "properties", an object with one entry per attribute of an item');
      continue;
    }
    if (typeof entity.properties !== 'object' || entity.properties === null || Array.isArray(entity.properties)) {
      report('invalid_value', 'properties', 'is not an object', 'write "properties": {"name": {"type": "string", "description": "…"}, …}');
      continue;
    }
    const attributes = checkProperties(entity.properties as Record<string, unknown>, options, problems, name);
    entities.push({ name, description, attributes });
  }
  return entities;
}
