import type { NormalizedValue } from '../normalization/index.ts';
import type { AttributeEvidence } from './record-issue.ts';

/**
 * One item of a child entity (a room of a hotel) as read from a reply: its values and their
 * evidence, checked like any record's. Its place in the list is its index (position = index + 1).
 * Its issues join the document's, named `rooms[2].price_per_night` (the item's place in the reply).
 */
export interface ChildRecord {
  values: Record<string, NormalizedValue>;
  evidence: AttributeEvidence[];
}

/** Per entity name, the items kept, in the document's order (see `readRecordReply`). */
export type ChildRecords = Record<string, ChildRecord[]>;
