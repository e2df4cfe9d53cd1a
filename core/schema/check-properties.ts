import type { AttributeDefinition } from './attribute-definition.ts';
import { checkPropertyDefinition, type CheckPropertyOptions } from './check-property-definition.ts';
import type { SchemaProblem } from './schema-problem.ts';

/** Names the SQL layer can use unquoted-safe and the paper's prompts produce (snake_case). */
export const propertyNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** srag's own columns; a child table also has `_position`. */
const reservedNames = new Set(['_source', '_content_hash', '_error', '_document']);

/**
 * The attributes of a `properties` object (the document's, or a child entity's with `entity` set,
 * which reserves `_position` too), every problem pushed onto `problems`.
 */
export function checkProperties(properties: Record<string, unknown>, options: CheckPropertyOptions, problems: SchemaProblem[], entity?: string): AttributeDefinition[] {
  const at = entity === undefined ? {} : { entity };
  const entries = Object.entries(properties);
  if (entries.length === 0) problems.push({ code: 'invalid_value', ...at, key: 'properties', problem: 'is empty', fix: entity === undefined ? 'a schema needs at least one attribute' : 'an entity needs at least one attribute' });
  const seen = new Map<string, string>();
  const attributes: AttributeDefinition[] = [];
  for (const [name, definition] of entries) {
    if (!propertyNamePattern.test(name)) {
      problems.push({ code: 'unusable_name', ...at, property: name, problem: 'is not a usable column name', fix: `use snake_case letters, digits and underscores, e.g. "${name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'price_per_night'}"` });
    } else if (reservedNames.has(name.toLowerCase()) || (entity !== undefined && name.toLowerCase() === '_position')) {
      problems.push({ code: 'reserved_name', ...at, property: name, problem: 'is a name srag reserves for its own columns', fix: 'rename it' });
    }
    const folded = name.toLowerCase();
    if (seen.has(folded)) {
      problems.push({ code: 'case_clash', ...at, property: name, problem: `differs from "${seen.get(folded)}" only in case; SQL would not tell them apart`, fix: 'rename one of them' });
    }
    seen.set(folded, name);
    const checked = checkPropertyDefinition(name, definition, options);
    problems.push(...checked.problems.map((problem) => ({ ...at, ...problem })));
    if (checked.attribute) attributes.push(checked.attribute);
  }
  return attributes;
}
