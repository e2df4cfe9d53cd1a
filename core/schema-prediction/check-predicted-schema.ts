import type { RecordSchema } from '../schema/attribute-definition.ts';

/**
 * What a predicted schema must carry beyond parsing, one problem per line: examples for every
 * attribute, and a unit for every non-integer number (S-RAG paper §6: a capital-expenditure column
 * without a stated scale held 1 for both 1M and 1B).
 */
export function checkPredictedSchema(schema: RecordSchema): string[] {
  const problems: string[] = [];
  for (const attribute of schema.attributes) {
    if (attribute.examples.length === 0) problems.push(`property "${attribute.name}" needs "examples"`);
    if (attribute.kind === 'number' && !attribute.unit) {
      problems.push(`number property "${attribute.name}" needs a "unit" (and a "scale" for large amounts) stated in its description too`);
    }
  }
  return problems;
}
