import { measurementUnits } from '../normalization/measurement-units.ts';
import { resolveColumnUnit } from '../normalization/resolve-column-unit.ts';
import type { AttributeDefinition, AttributeKind, ExampleValue } from './attribute-definition.ts';
import { closestWord } from './closest-word.ts';
import type { SchemaProblem } from './schema-problem.ts';
import { scaleWords } from './scale-words.ts';
import { singularNoun } from './singular-noun.ts';
import { toSnakeCase } from './to-snake-case.ts';
import { unitsWithoutConversion } from './units-without-conversion.ts';
import { unknownKeys } from './unknown-keys.ts';

/** The keys a property may have; anything else is a problem (or, for model output, ignored). */
export const propertyKeys = ['type', 'format', 'description', 'examples', 'unit', 'scale'] as const;

const primitiveTypes = ['string', 'number', 'integer', 'boolean'];
const typeFix = 'use "string", "number", "integer" or "boolean" (a date is "string" with "format": "date"), optionally with "null": ["number", "null"]';

export interface CheckPropertyOptions {
  /** `reject` (default) reports keys srag does not read; `ignore` drops them (a model's extra annotations). */
  unknownKeys?: 'reject' | 'ignore';
}

/**
 * Every problem of one property definition, or the attribute it defines when it has none. Checks
 * go on after a problem, so that one run reports them all; only a nested object or a list, which
 * make the other checks meaningless, stop early.
 */
export function checkPropertyDefinition(name: string, definition: unknown, options: CheckPropertyOptions = {}): { attribute?: AttributeDefinition; problems: SchemaProblem[] } {
  const problems: SchemaProblem[] = [];
  const report = (code: SchemaProblem['code'], key: string | undefined, problem: string, fix: string) => {
    problems.push({ code, property: name, ...(key === undefined ? {} : { key }), problem, fix });
  };
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
    report('not_an_object', undefined, `is ${JSON.stringify(definition)}, not an object`, 'write it as {"type": "string", "description": "…"}');
    return { problems };
  }
  const property = definition as Record<string, unknown>;
  const declaredTypes = Array.isArray(property.type) ? property.type : [property.type];
  if (declaredTypes.includes('object') || property.properties !== undefined) {
    report('nested_object', undefined, 'is a nested object; only flat attributes are supported', `flatten it into separate properties such as "${name}_city", "${name}_country"`);
    return { problems };
  }
  if (declaredTypes.includes('array') || property.items !== undefined) {
    const items = property.items as { properties?: unknown } | undefined;
    if (typeof items?.properties === 'object' && items.properties !== null) {
      // A list of objects is a one-to-many entity: its own table, declared under "entities".
      report('list', undefined, 'is a list of objects; a property holds one value', `declare it under "entities": {"${name}": {"description": "…", "properties": {…}}} (one row per item in its own table)`);
      return { problems };
    }
    report('list', undefined, 'is a list; lists are not supported', `use one boolean property per possible value, e.g. ${listSuggestion(name, property)}`);
    return { problems };
  }

  const { unknown, meant } = unknownKeys(options.unknownKeys === 'ignore' ? {} : property, propertyKeys);
  for (const { key, suggestion } of unknown) {
    report('unknown_key', key, 'is not a key srag reads', suggestion
      ? `did you mean "${suggestion}"? rename it`
      : `remove it; a property has only ${propertyKeys.map((known) => `"${known}"`).join(', ')}`);
  }

  const kind = readKind(property, meant, report);
  const description = typeof property.description === 'string' ? property.description.trim() : '';
  if (property.description === undefined) {
    if (!meant.has('description')) report('missing_key', 'description', 'is missing', 'add a "description" that fixes the meaning, unit and normal form of the values');
  } else if (!description) {
    report('invalid_value', 'description', 'is empty', 'write what the value means, its unit and its normal form');
  }
  const examples = readExamples(property.examples, report);
  const isNumber = kind === 'number' || kind === 'integer';
  if (property.unit !== undefined) {
    if (typeof property.unit !== 'string' || !property.unit.trim()) {
      report('invalid_value', 'unit', `is ${JSON.stringify(property.unit)}, not a unit`, 'write the unit as text, e.g. "USD", "metres", "percent", or remove "unit"');
    } else if (kind !== undefined && !isNumber) {
      report('invalid_value', 'unit', `is set but the property is a ${kind === 'date' ? 'date' : kind}`, 'remove "unit", or make the type "number"');
    } else {
      checkUnit(property.unit, report);
    }
  }
  let scale: number | undefined;
  if (property.scale !== undefined) {
    scale = readScale(property.scale, report);
    if (kind !== undefined && !isNumber) report('invalid_value', 'scale', `is set but the property is a ${kind === 'date' ? 'date' : kind}`, 'remove "scale", or make the type "number"');
  }
  if (problems.length > 0 || kind === undefined) return { problems };
  const attribute: AttributeDefinition = { name, kind, description, examples };
  if (property.unit !== undefined) attribute.unit = (property.unit as string).trim();
  if (scale !== undefined) attribute.scale = scale;
  return { attribute, problems };
}

type Report = (code: SchemaProblem['code'], key: string | undefined, problem: string, fix: string) => void;

function readKind(property: Record<string, unknown>, meant: Set<string>, report: Report): AttributeKind | undefined {
  const declared = property.type;
  if (declared === undefined) {
    if (!meant.has('type')) report('missing_key', 'type', 'is missing', typeFix);
    return undefined;
  }
  const types = Array.isArray(declared) ? declared : [declared];
  const unknown = types.filter((type) => typeof type !== 'string' || (!primitiveTypes.includes(type) && type !== 'null'));
  if (unknown.length > 0 || types.length === 0) {
    report('invalid_value', 'type', `is ${JSON.stringify(declared)}, not a type srag supports`, typeFix);
    return undefined;
  }
  const concrete = types.filter((type) => type !== 'null') as string[];
  if (concrete.length !== 1) {
    report('invalid_value', 'type', `is ${JSON.stringify(declared)}; it must name exactly one type besides "null"`, typeFix);
    return undefined;
  }
  const format = property.format;
  if (format === undefined) return concrete[0] as AttributeKind;
  if (concrete[0] === 'string' && (format === 'date' || format === 'date-time')) return 'date';
  report('invalid_value', 'format', `is ${JSON.stringify(format)}, not a format srag reads${concrete[0] === 'string' ? '' : ` on a ${concrete[0]}`}`,
    'use "format": "date" on a "string" property for dates, or remove "format"');
  return concrete[0] as AttributeKind;
}

function readExamples(examples: unknown, report: Report): ExampleValue[] {
  if (examples === undefined) return [];
  const isExample = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (!Array.isArray(examples) || !examples.every(isExample)) {
    report('invalid_value', 'examples', `is ${JSON.stringify(examples)}, not a list of plain values`, 'write a list of strings, numbers or booleans, e.g. ["Paris", "Rome"]');
    return [];
  }
  return examples.filter((example): example is ExampleValue => example !== null);
}

function checkUnit(unit: string, report: Report): void {
  const written = unit.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
  const dimension = unitsWithoutConversion.get(written);
  if (dimension === undefined || resolveColumnUnit(unit).kind !== 'count') return;
  const converted = [...new Set([...measurementUnits.values()].filter((known) => known.dimension === dimension).map((known) => known.label))];
  report('unit_not_converted', 'unit', `is "${unit}", a ${dimension === 'proportion' ? 'proportion' : dimension} unit srag cannot convert values into: every value the documents write in another unit would be refused at ingest`,
    `use one of ${converted.join(', ')}`);
}

function readScale(scale: unknown, report: Report): number | undefined {
  if (typeof scale === 'number' && Number.isFinite(scale) && scale > 0) return scale;
  if (typeof scale === 'string' && scaleWords[scale.trim().toLowerCase()] !== undefined) return scaleWords[scale.trim().toLowerCase()];
  const suggestion = typeof scale === 'string' ? closestWord(scale, Object.keys(scaleWords)) : undefined;
  report('invalid_value', 'scale', `is ${JSON.stringify(scale)}, not a scale`,
    `${suggestion ? `did you mean "${suggestion}"? ` : ''}use "thousands", "millions", "billions" or "trillions", or a positive number such as 1000000`);
  return undefined;
}

/** Suggested boolean names for a list property: from its options when the schema lists them, else a pattern. */
function listSuggestion(name: string, property: Record<string, unknown>): string {
  const singular = singularNoun(name);
  const items = property.items as { enum?: unknown } | undefined;
  const options = [items?.enum, property.examples].flatMap((values) => (Array.isArray(values) ? values.flat() : []))
    .filter((value): value is string => typeof value === 'string' && toSnakeCase(value, { prefix: 'n_', fallback: '' }) !== '');
  if (options.length > 0) return [...new Set(options)].slice(0, 3).map((option) => `"${singular}_${toSnakeCase(option, { prefix: 'n_', fallback: '' })}"`).join(', ');
  return `"${singular}_<option>" for each option`;
}
