// Builders imported by name (not as the `z` namespace), so that a bundle keeps only these of zod.
import { array, boolean, enum as enumOf, null as nullValue, number, object, string, union, type infer as Infer, type ZodType } from 'zod';
import { SchemaInvalidError } from '../errors/schema-invalid-error.ts';
import type { AttributeDefinition, AttributeKind, RecordSchema } from './attribute-definition.ts';

const scaleWords: Record<string, number> = {
  units: 1, ones: 1, thousands: 1e3, millions: 1e6, billions: 1e9, trillions: 1e12,
};

/** Names the SQL layer can use unquoted-safe and the paper's prompts produce (snake_case). */
const propertyNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
const reservedNames = new Set(['_source', '_content_hash', '_error', '_document']);

let propertyModel: ZodType | undefined;
/** Built on first use: Apps Script evaluates the whole bundle on every call. */
function getPropertyModel() {
  propertyModel ??= object({
    type: union([
      enumOf(['string', 'number', 'integer', 'boolean']),
      array(enumOf(['string', 'number', 'integer', 'boolean', 'null'])).min(1),
    ]),
    format: string().optional(),
    description: string().trim().min(1, 'needs a description that fixes its meaning, unit and normal form'),
    examples: array(union([string(), number(), boolean(), nullValue()])).optional(),
    unit: string().trim().min(1).optional(),
    scale: union([number().positive(), enumOf(Object.keys(scaleWords) as [string, ...string[]])]).optional(),
  });
  return propertyModel;
}

/**
 * Parse a JSON-Schema document into a `RecordSchema`, or throw `SchemaInvalidError` naming the
 * first property at fault and the fix. `source` names where the schema came from in messages.
 */
export function parseRecordSchema(input: unknown, source = 'schema'): RecordSchema {
  const fail = (message: string, property?: string, hint?: string): never => {
    throw new SchemaInvalidError({ message: `${source}: ${message}`, property, source, hint });
  };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    fail('must be a JSON object with "title" and "properties"');
  }
  const document = input as Record<string, unknown>;
  const title = typeof document.title === 'string' && document.title.trim() ? document.title.trim() : undefined;
  if (!title) fail('needs a "title" (it names the table unless --table is given)');
  const properties = document.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    fail('needs "properties", an object with one entry per attribute');
  }
  const entries = Object.entries(properties as Record<string, unknown>);
  if (entries.length === 0) fail('"properties" is empty: a schema needs at least one attribute');

  const seen = new Map<string, string>();
  const attributes: AttributeDefinition[] = [];
  for (const [name, rawProperty] of entries) {
    const where = `property "${name}"`;
    if (!propertyNamePattern.test(name)) {
      fail(`${where} is not a usable column name`, name, 'use snake_case letters, digits and underscores, e.g. "price_per_night"');
    }
    if (reservedNames.has(name.toLowerCase())) fail(`${where} uses a name srag reserves for its own columns`, name, 'rename it');
    const folded = name.toLowerCase();
    if (seen.has(folded)) fail(`${where} differs from "${seen.get(folded)}" only in case; SQL would not tell them apart`, name);
    seen.set(folded, name);

    const property = rawProperty as Record<string, unknown> | null;
    const declaredType = property?.type;
    const types = Array.isArray(declaredType) ? declaredType : [declaredType];
    if (types.includes('object') || property?.properties !== undefined) {
      fail(`${where} is a nested object; only flat attributes are supported`, name,
        `flatten it into separate properties such as "${name}_city", "${name}_country"`);
    }
    if (types.includes('array') || property?.items !== undefined) {
      fail(`${where} is a list; lists are not supported`, name,
        `use one boolean property per possible value, e.g. "has_${name.replace(/s$/, '')}_pool"`);
    }
    const parsed = getPropertyModel().safeParse(rawProperty);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.length ? ` field "${issue.path.join('.')}"` : '';
      fail(`${where}${field}: ${issue.message}`, name,
        'each property needs "type" (string, number, integer or boolean; a date is a string with "format": "date") and a "description"');
    }
    const value = parsed.data as Infer<ReturnType<typeof getPropertyModel>> & Record<string, unknown>;
    const concreteTypes = (Array.isArray(value.type) ? value.type : [value.type]).filter((type: string) => type !== 'null');
    if (concreteTypes.length !== 1) fail(`${where} must have one type besides "null", found ${JSON.stringify(value.type)}`, name);
    let kind = concreteTypes[0] as AttributeKind;
    if (kind === 'string' && (value.format === 'date' || value.format === 'date-time')) kind = 'date';
    const attribute: AttributeDefinition = {
      name,
      kind,
      description: value.description as string,
      examples: ((value.examples as unknown[] | undefined) ?? []).filter((example): example is string | number | boolean => example !== null),
    };
    if (value.unit !== undefined) {
      if (kind !== 'number' && kind !== 'integer') fail(`${where} has a unit but is not a number`, name, 'remove "unit" or make the type number');
      attribute.unit = value.unit as string;
    }
    if (value.scale !== undefined) {
      attribute.scale = typeof value.scale === 'number' ? value.scale : scaleWords[value.scale as string];
    }
    attributes.push(attribute);
  }
  return { title: title!, attributes };
}
