import type { AttributeDefinition, ChildEntity, RecordSchema } from '../schema/attribute-definition.ts';

const scaleWords = new Map<number, string>([[1e3, 'thousands'], [1e6, 'millions'], [1e9, 'billions'], [1e12, 'trillions']]);

/**
 * The schema as an extraction prompt shows it: one line per property — its name (as a JSON
 * string, so any name reads back unambiguously), kind, unit and scale, description and examples.
 * Pretty-printed JSON Schema spent about half its tokens on braces, indentation and the words
 * "type", "description" and "examples" repeated per property; this carries the same facts.
 *
 * `- "price_per_night" (number in USD): Cheapest nightly rate. Examples: 189, 1250`
 *
 * A child entity follows as a list, its items' properties indented under it:
 * `- "rooms" (list): Every room type the hotel lists. Each item:` then `  - "room_type" (string): …`
 */
export function renderSchemaForPrompt(schema: RecordSchema): string {
  return [...schema.attributes.map(renderProperty), ...(schema.entities ?? []).map(renderEntity)].join('\n');
}

function renderEntity(entity: ChildEntity): string {
  return [
    `- ${JSON.stringify(entity.name)} (list): ${sentence(entity.description)} Each item:`,
    ...entity.attributes.map((attribute) => `  ${renderProperty(attribute)}`),
  ].join('\n');
}

function renderProperty(attribute: AttributeDefinition): string {
  const examples = attribute.examples.length ? ` Examples: ${attribute.examples.map((example) => JSON.stringify(example)).join(', ')}` : '';
  return `- ${JSON.stringify(attribute.name)} (${kindWords(attribute)}): ${sentence(attribute.description)}${examples}`;
}

/** The description ending in a full stop (none added to an empty one or one that ends a sentence already). */
function sentence(description: string): string {
  const text = description.trim();
  return text === '' || /[.!?]$/.test(text) ? text : `${text}.`;
}

function kindWords(attribute: AttributeDefinition): string {
  if (attribute.kind === 'date') return 'date, YYYY-MM-DD';
  const scale = attribute.scale !== undefined && attribute.scale !== 1 ? scaleWords.get(attribute.scale) ?? `units of ${attribute.scale}` : undefined;
  if (scale && attribute.unit) return `${attribute.kind} in ${scale} of ${attribute.unit}`;
  if (scale) return `${attribute.kind} in ${scale}`;
  if (attribute.unit) return `${attribute.kind} in ${attribute.unit}`;
  return attribute.kind;
}
