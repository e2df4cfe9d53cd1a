import type { RecordSchema } from '../schema/attribute-definition.ts';

/** The reply tokens a batched call is planned for: well under the output limit of current models (16k for gpt-4o-mini). */
const plannedReplyTokens = 6_000;
/** Reply tokens per property of one record: a value and its quote (up to 200 characters) with their keys; the value alone without evidence. */
const tokensPerProperty = { withEvidence: 45, withoutEvidence: 12 };
const mostDocumentsPerCall = 16;
/** Items a child entity's list is planned at per record (a hotel's room types, a filing's segments); its brackets cost a few tokens more. */
const plannedItemsPerList = { items: 10, tokensPerList: 4 };

/**
 * How many documents share a model call by default: as many as keep the planned reply (one
 * record per document) within `plannedReplyTokens`, at most 16 — the input budget then decides
 * per call (see `packBatches`). With or without evidence: a reply whose ids are mixed up is caught
 * by the quotes (each must occur in its own document), and without quotes by the values (a record
 * whose values another document of the call states more of than its own, see
 * `recordFromAnotherDocument`); the call is then split down to documents sent alone.
 */
export function automaticBatchSize(schema: RecordSchema, withEvidence: boolean): number {
  return Math.max(1, Math.min(mostDocumentsPerCall, Math.floor(plannedReplyTokens / plannedRecordTokens(schema, withEvidence))));
}

/**
 * The completion tokens one record is planned at (what an estimate counts per document): its
 * properties, and for each child entity a list of `plannedItemsPerList.items` items of its own.
 */
export function plannedRecordTokens(schema: RecordSchema, withEvidence: boolean): number {
  const perProperty = withEvidence ? tokensPerProperty.withEvidence : tokensPerProperty.withoutEvidence;
  const lists = (schema.entities ?? []).reduce((sum, entity) => sum + plannedItemsPerList.tokensPerList + plannedItemsPerList.items * entity.attributes.length * perProperty, 0);
  return 10 + schema.attributes.length * perProperty + lists;
}

/** A run's batch size as given (`'auto'` or absent: `automaticBatchSize`; a number: at least 1). */
export function resolveBatchSize(batchSize: number | 'auto' | undefined, schema: RecordSchema, withEvidence: boolean): number {
  return batchSize === undefined || batchSize === 'auto' ? automaticBatchSize(schema, withEvidence) : Math.max(1, Math.floor(batchSize));
}
