import { answerProperty } from './answer-property.ts';
import type { GoldRecord } from './load-gold-corpus.ts';
import type { ModelSlip } from './types.ts';

/**
 * The child entities' lists of a reply, keyed by entity name: the gold items whose quotes occur in
 * this very text (a part of a split document lists only its own items), each property answered as
 * a top-level one is, with the slips asked for on the properties they are asked for.
 */
export function answerChildItems(
  entities: ReadonlyMap<string, string[]>,
  record: GoldRecord | undefined,
  documentText: string,
  withEvidence: boolean,
  slips: readonly ModelSlip[],
  slipProperties: readonly string[],
): Array<[string, unknown]> {
  return [...entities].map(([entity, propertyNames]) => {
    const items = (record?.children?.[entity] ?? []).flatMap((values, index) => {
      const answers = propertyNames.map((name, position) => [name, answerProperty(name, { document: record!.document, values }, documentText,
        slipProperties.length === 0 || slipProperties.includes(name) ? slips : [], index + position)] as const);
      if (answers.every(([, answer]) => answer.quote === null)) return [];
      return [Object.fromEntries(answers.map(([name, answer]) => [name, withEvidence ? answer : answer.value]))];
    });
    return [entity, items];
  });
}
