import type { SragErrorCode } from '../errors/srag-error.ts';
import type { ChildRecords } from '../extraction/child-record.ts';
import type { AttributeEvidence, RecordIssue } from '../extraction/record-issue.ts';
import type { NormalizedValue } from '../normalization/index.ts';
import type { TokenUsage } from '../ports/language-model.ts';

/**
 * What happened to one document in a run:
 * - `done`: extracted now and saved;
 * - `unchanged`: the log holds a record for this very content; no model call, no write;
 * - `failed`: it could not be read or extracted (the error is logged for this content);
 * - `skipped-failed`: it failed before with this very content and was not tried again;
 * - `empty`: no text at all (or only whitespace); skipped without a model call and logged;
 * - `deferred`: its request went into a Batch API submission; nothing saved, a later run collects it;
 * - `stale`: a back-fill found the document changed, gone or without a record; it was not
 *   extracted, its record keeps its values and the missing attributes are NULL with `error` as the reason.
 */
export type OutcomeStatus = 'done' | 'unchanged' | 'failed' | 'skipped-failed' | 'empty' | 'deferred' | 'stale';

export interface DocumentOutcome {
  source: string;
  label: string;
  /** SHA-256 of the content as read; '' when it could not be read. */
  contentHash: string;
  status: OutcomeStatus;
  /**
   * One value per attribute for `done`, and for `unchanged` when the store keeps values at hand;
   * null otherwise (never a half-filled record). When `onlyAttributes` is set, one value per
   * attribute extracted now: the record's other values were saved earlier and stay.
   */
  values: Record<string, NormalizedValue> | null;
  /** For `done`: the attributes extracted now, when they were only those missing from an earlier record. */
  onlyAttributes?: string[];
  /** For `done`: the attribute definitions the saved record holds (see `IngestionLogEntry.attributeHashes`). */
  attributeHashes?: string[];
  evidence: AttributeEvidence[];
  issues: RecordIssue[];
  /** For `done`, the items of each child entity the schema declares (see `ChildEntity`). */
  children?: ChildRecords;
  /** Why the document was not extracted (`failed`, `skipped-failed`, `empty`); null otherwise. */
  error: string | null;
  errorCode: SragErrorCode | null;
  /** True when every reply came from the response cache. */
  cached: boolean;
  usage: TokenUsage;
}
