import type { AttributeEvidence } from '../extraction/record-issue.ts';
import { generateObject } from '../language-model/generate-object.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { NormalizedValue } from '../normalization/index.ts';
import type { CodeSandbox } from '../ports/code-sandbox.ts';
import type { OutputSchema, TokenUsage } from '../ports/language-model.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { checkExtractors, type CheckDocument } from './check-extractors.ts';
import { attributeDefinitionKey, type SynthesizedExtractor } from './synthesized-extractor.ts';

/** A document the model extracted, shown to it with what it read, to write the functions from. */
export interface SynthesisSample {
  label: string;
  text: string;
  evidence: readonly AttributeEvidence[];
}

/** Characters of a sample shown; templated pages are short, and a long one shows its layout early. */
const sampleCharacters = 12_000;
/** A function longer than this is no template reader; it is not run. */
const longestSource = 20_000;

/**
 * Has the model write one JavaScript function per attribute from sample documents and the values
 * it read from them (one call), then checks every function on the samples and the held-out
 * documents (`checkExtractors`): only functions that agree with the model's extraction on all of
 * them are accepted.
 */
export async function synthesizeExtractors(options: {
  client: ModelClient;
  prompts: PromptLibrary;
  schema: RecordSchema;
  model?: string;
  sandbox: CodeSandbox;
  samples: readonly SynthesisSample[];
  heldOut: readonly CheckDocument[];
}): Promise<{ extractors: SynthesizedExtractor[]; usage: TokenUsage }> {
  const { schema } = options;
  const reply = await generateObject({
    client: options.client,
    step: `writing extraction functions from ${options.samples.length} sample documents`,
    request: {
      model: options.model,
      messages: [{ role: 'user', content: renderSynthesisPrompt(options.prompts, schema, options.samples) }],
      outputSchema: synthesisOutputSchema(schema),
    },
    validate: (value) => readSynthesisReply(value, schema),
  });
  const written = schema.attributes.map((attribute) => ({ attribute: attribute.name, definition: attributeDefinitionKey(attribute), source: reply.value.get(attribute.name) ?? null }));
  const candidates = written.flatMap(({ attribute, source }) => (source !== null && source.length <= longestSource ? [{ attribute, source }] : []));
  const documents: CheckDocument[] = [
    ...options.samples.map((sample) => ({ label: sample.label, text: sample.text, values: valuesOf(sample.evidence) })),
    ...options.heldOut,
  ];
  const checked = await checkExtractors({ sandbox: options.sandbox, schema, candidates, documents });
  const extractors = written.map(({ attribute, definition, source }): SynthesizedExtractor => checked.find((extractor) => extractor.attribute === attribute) ?? {
    attribute,
    definition,
    source: source ?? '',
    status: 'rejected',
    reason: source === null ? 'the model wrote no function for it' : `its function is longer than ${longestSource.toLocaleString('en-US')} characters`,
    checkedDocuments: 0,
    quoteBoundaries: [],
  });
  return { extractors, usage: reply.usage };
}

export function renderSynthesisPrompt(prompts: PromptLibrary, schema: RecordSchema, samples: readonly SynthesisSample[]): string {
  const attributes = schema.attributes.map((attribute) => {
    const unit = attribute.unit ? `, in ${attribute.unit}` : '';
    return `- ${attribute.name} (${attribute.kind}${unit}): ${attribute.description}`;
  }).join('\n');
  const rendered = samples.map((sample, index) => {
    const text = sample.text.length > sampleCharacters ? `${sample.text.slice(0, sampleCharacters)}\n[… the rest of the document is left out]` : sample.text;
    const values = schema.attributes.map((attribute) => {
      const evidence = sample.evidence.find((entry) => entry.attribute === attribute.name);
      if (!evidence || evidence.value === null) return `- ${attribute.name}: null`;
      return `- ${attribute.name}: ${JSON.stringify(evidence.raw ?? evidence.value)} (quote: ${JSON.stringify(evidence.quote)})`;
    }).join('\n');
    return `<document id="${index + 1}">\n${text}\n</document>\nValues read from document ${index + 1}:\n${values}`;
  }).join('\n\n');
  const example = Object.fromEntries(schema.attributes.map((attribute) => [attribute.name, 'function (text) { … }']));
  return renderPrompt(prompts['synthesize-extractors'], {
    entity: schema.title.toLowerCase(),
    attributes,
    samples: rendered,
    output_example: JSON.stringify(example, null, 2),
  });
}

function synthesisOutputSchema(schema: RecordSchema): OutputSchema {
  return {
    name: 'extractors',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: schema.attributes.map((attribute) => attribute.name),
      properties: Object.fromEntries(schema.attributes.map((attribute) => [attribute.name, {
        type: ['string', 'null'],
        description: `A JavaScript function expression (text) => ({ value, quote }) | null reading ${attribute.name}; null when no function can read it reliably.`,
      }])),
    },
  };
}

/** One source (or null) per attribute; a missing key is null, anything but a string or null is a problem to re-ask about. */
function readSynthesisReply(reply: unknown, schema: RecordSchema): { value: Map<string, string | null> } | { problems: string[] } {
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return { problems: ['the reply must be one JSON object with one key per attribute'] };
  const object = reply as Record<string, unknown>;
  const sources = new Map<string, string | null>();
  const problems: string[] = [];
  for (const attribute of schema.attributes) {
    const source = Object.hasOwn(object, attribute.name) ? object[attribute.name] ?? null : null;
    if (source !== null && typeof source !== 'string') problems.push(`${attribute.name} must be the function's source as a string, or null`);
    else sources.set(attribute.name, source === null || source.trim() === '' ? null : source);
  }
  return problems.length ? { problems } : { value: sources };
}

function valuesOf(evidence: readonly AttributeEvidence[]): Record<string, NormalizedValue> {
  return Object.fromEntries(evidence.map((entry) => [entry.attribute, entry.value]));
}
